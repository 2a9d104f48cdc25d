import { describe, expect, it } from 'vitest';
import { RtmpPlayReader } from './play-reader.js';

const amfString = (value: string) => {
  const bytes = Buffer.from(value);
  const head = Buffer.alloc(3);
  head[0] = 0x02;
  head.writeUInt16BE(bytes.length, 1);
  return Buffer.concat([head, bytes]);
};
const amfNumber = (value: number) => {
  const bytes = Buffer.alloc(9);
  bytes.writeDoubleBE(value, 1);
  return bytes;
};

/** A message as chunks of `chunkSize` on chunk stream 3: a type 0 header, then type 3 continuations. */
function chunked(type: number, payload: Buffer, chunkSize: number): Buffer {
  const header = Buffer.alloc(12);
  header[0] = 0x03;
  header.writeUIntBE(payload.length, 4, 3);
  header[7] = type;
  const parts: Buffer[] = [header];
  for (let at = 0; at < payload.length; at += chunkSize) {
    if (at > 0) parts.push(Buffer.from([0xc3]));
    parts.push(payload.subarray(at, at + chunkSize));
  }
  return Buffer.concat(parts);
}

const command = (name: string, ...rest: Buffer[]) =>
  chunked(20, Buffer.concat([amfString(name), amfNumber(1), Buffer.from([0x05]), ...rest]), 128);

describe('RtmpPlayReader', () => {
  const name = `out%2B${'0'.repeat(36)}?token=${'x'.repeat(600)}`;

  it('reads a play name longer than a chunk, sent in any slices, past a chunk size change', () => {
    const setChunkSize = Buffer.alloc(4);
    setChunkSize.writeUInt32BE(256);
    const stream = Buffer.concat([
      Buffer.alloc(1 + 1536 + 1536, 7),
      command('connect'),
      chunked(1, setChunkSize, 128),
      chunked(20, Buffer.concat([amfString('play'), amfNumber(4), Buffer.from([0x05]), amfString(name)]), 256),
    ]);
    const reader = new RtmpPlayReader();
    for (let at = 0; at < stream.length; at += 100) reader.push(stream.subarray(at, at + 100));
    expect(reader.playName).toBe(name);
  });

  it('reads nothing of a publisher, nor of bytes that are not RTMP', () => {
    const publisher = new RtmpPlayReader();
    publisher.push(
      Buffer.concat([Buffer.alloc(3073), command('publish', amfString('in+x')), command('play', amfString(name))]),
    );
    expect(publisher.playName).toBeNull();
    const garbage = new RtmpPlayReader();
    garbage.push(Buffer.alloc(3073 + 70_000, 0xff));
    expect(garbage.playName).toBeNull();
  });
});
