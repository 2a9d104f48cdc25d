import { describe, expect, it } from 'vitest';
import { RtmpChunkReader, type RtmpMessage } from './chunk-reader.js';

/** A chunk's basic header (csid < 64) and message header of format `fmt`. */
function chunk(fmt: number, csid: number, fields: { ts?: number; length?: number; type?: number; sid?: number }) {
  const { ts = 0, length = 0, type = 0, sid = 0 } = fields;
  const extended = ts >= 0xffffff;
  const header = [Buffer.from([(fmt << 6) | csid])];
  if (fmt <= 2) {
    const stamp = Buffer.alloc(3);
    stamp.writeUIntBE(extended ? 0xffffff : ts, 0, 3);
    header.push(stamp);
  }
  if (fmt <= 1) {
    const rest = Buffer.alloc(4);
    rest.writeUIntBE(length, 0, 3);
    rest[3] = type;
    header.push(rest);
  }
  if (fmt === 0) {
    const id = Buffer.alloc(4);
    id.writeUInt32LE(sid);
    header.push(id);
  }
  if (extended) {
    const big = Buffer.alloc(4);
    big.writeUInt32BE(ts);
    header.push(big);
  }
  return Buffer.concat(header);
}

const bytes = (length: number, fill: number) => Buffer.alloc(length, fill);

function read(stream: Buffer, pieces = 1): RtmpMessage[] {
  const messages: RtmpMessage[] = [];
  const reader = new RtmpChunkReader((message) => messages.push(message), 1024);
  // In odd-sized pieces: a chunk split anywhere waits for its rest.
  const size = Math.ceil(stream.length / pieces);
  for (let at = 0; at < stream.length; at += size) reader.push(stream.subarray(at, at + size));
  return messages;
}

describe('RTMP chunk reader', () => {
  it('reassembles interleaved chunk streams of every format, with timestamp deltas and extended timestamps', () => {
    const stream = Buffer.concat([
      // Video, 200 bytes in chunks of 128, interleaved with an audio message on another chunk stream.
      chunk(0, 6, { ts: 1000, length: 200, type: 9, sid: 1 }),
      bytes(128, 0xaa),
      chunk(0, 4, { ts: 1005, length: 10, type: 8, sid: 1 }),
      bytes(10, 0xbb),
      chunk(3, 6, {}),
      bytes(72, 0xaa),
      // Format 1: a new length and type, a delta of 33; format 2: only a delta (40); format 3 repeats it.
      chunk(1, 6, { ts: 33, length: 5, type: 9 }),
      bytes(5, 1),
      chunk(2, 6, { ts: 40 }),
      bytes(5, 2),
      chunk(3, 6, {}),
      bytes(5, 3),
      // An extended timestamp (past 0xffffff), carried again by the format 3 chunk that continues the message.
      chunk(0, 4, { ts: 0x1234_5678, length: 130, type: 8, sid: 1 }),
      bytes(128, 4),
      Buffer.from([0xc4]),
      Buffer.from([0x12, 0x34, 0x56, 0x78]),
      bytes(2, 4),
    ]);
    for (const pieces of [1, 7, stream.length]) {
      const messages = read(stream, pieces).map(({ type, streamId, timestamp, payload }) => ({
        type,
        streamId,
        timestamp,
        length: payload.length,
        first: payload[0],
        last: payload.at(-1),
      }));
      expect(messages).toEqual([
        { type: 8, streamId: 1, timestamp: 1005, length: 10, first: 0xbb, last: 0xbb },
        { type: 9, streamId: 1, timestamp: 1000, length: 200, first: 0xaa, last: 0xaa },
        { type: 9, streamId: 1, timestamp: 1033, length: 5, first: 1, last: 1 },
        { type: 9, streamId: 1, timestamp: 1073, length: 5, first: 2, last: 2 },
        { type: 9, streamId: 1, timestamp: 1113, length: 5, first: 3, last: 3 },
        { type: 8, streamId: 1, timestamp: 0x1234_5678, length: 130, first: 4, last: 4 },
      ]);
    }
  });

  it('applies the sender’s Set Chunk Size to the chunks after it', () => {
    const size = Buffer.alloc(4);
    size.writeUInt32BE(300);
    const messages = read(
      Buffer.concat([
        chunk(0, 2, { length: 4, type: 1 }),
        size,
        chunk(0, 6, { ts: 0, length: 300, type: 9, sid: 1 }),
        bytes(300, 9),
      ]),
    );
    expect(messages.map((message) => [message.type, message.payload.length])).toEqual([
      [1, 4],
      [9, 300],
    ]);
  });

  it('refuses a chunk stream that begins without a full header, a chunk size of 0 and a message over its bound', () => {
    expect(() => read(Buffer.concat([chunk(1, 6, { length: 5, type: 9 }), bytes(5, 0)]))).toThrow(
      'chunk stream 6 began without its first header',
    );
    expect(() => read(Buffer.concat([chunk(0, 2, { length: 4, type: 1 }), Buffer.alloc(4)]))).toThrow(
      'chunk size of 0',
    );
    expect(() => read(chunk(0, 6, { length: 2000, type: 9 }))).toThrow('larger than the 1024 allowed');
  });
});
