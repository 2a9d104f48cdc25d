import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { u32 } from '../big-endian.js';
import { decodeAmf0, encodeAmf0 } from './amf0.js';
import { RtmpChunkReader, type RtmpMessage } from './chunk-reader.js';
import { playRtmp } from './play-client.js';

/**
 * The play client against a scripted RTMP peer on loopback (the unit's edge; against nginx-rtmp itself, the LL-HLS
 * media test plays through it): the handshake, then `script` with the client's messages as they come.
 */
let server: Server | null = null;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = null;
});

/** A message in one chunk of format 0 on chunk stream `csid` (the peer's chunk size is RTMP's 128 by default). */
function message(csid: number, type: number, streamId: number, payload: Buffer, timestamp = 0): Buffer {
  const header = Buffer.alloc(12);
  header[0] = csid;
  header.writeUIntBE(timestamp, 1, 3);
  header.writeUIntBE(payload.length, 4, 3);
  header[7] = type;
  header.writeUInt32LE(streamId, 8);
  return Buffer.concat([header, payload]);
}

async function peer(script: (socket: Socket, received: RtmpMessage, all: RtmpMessage[]) => void): Promise<string> {
  server = createServer((socket) => {
    let handshake = Buffer.alloc(0);
    const all: RtmpMessage[] = [];
    const reader = new RtmpChunkReader((received) => {
      all.push(received);
      script(socket, received, all);
    });
    socket.on('data', (bytes: Buffer) => {
      if (handshake.length < 1 + 1536 * 2) {
        const before = handshake.length;
        handshake = Buffer.concat([handshake, bytes]);
        // S0 + S1 + S2 once C0 + C1 came; the chunk stream begins after C2.
        if (before < 1537 && handshake.length >= 1537)
          socket.write(Buffer.concat([Buffer.from([3]), Buffer.alloc(3072)]));
        if (handshake.length > 1 + 1536 * 2) reader.push(handshake.subarray(1 + 1536 * 2));
        return;
      }
      reader.push(bytes);
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const address = server?.address();
  return `rtmp://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/live/stream?relay=secret`;
}

/** The peer's answers up to the play: connect's and createStream's results (stream id 1), the play's start. */
function answer(socket: Socket, received: RtmpMessage): string | null {
  if (received.type !== 20) return null;
  const [command, transaction] = decodeAmf0(received.payload);
  if (command === 'connect') socket.write(message(3, 20, 0, encodeAmf0(['_result', 1, null, { code: 'ok' }])));
  if (command === 'createStream')
    socket.write(message(3, 20, 0, encodeAmf0(['_result', transaction as number, null, 1])));
  if (command === 'play')
    socket.write(
      message(5, 20, 1, encodeAmf0(['onStatus', 0, null, { level: 'status', code: 'NetStream.Play.Start' }])),
    );
  return command as string;
}

describe('RTMP play client', () => {
  it('connects with the app and tcUrl, plays the name with its query, answers pings, acknowledges its window', async () => {
    const got: RtmpMessage[] = [];
    let connect: unknown[] = [];
    let play: unknown[] = [];
    let acknowledged = 0;
    let pinged = 0;
    const url = await peer((socket, received, all) => {
      const command = answer(socket, received);
      if (command === 'connect') connect = decodeAmf0(received.payload);
      if (command === 'play') {
        play = decodeAmf0(received.payload);
        // A window of 200 bytes, a ping, then 3 video messages of 100 bytes.
        socket.write(message(2, 5, 0, u32(200)));
        socket.write(message(2, 4, 0, Buffer.concat([Buffer.from([0, 6]), u32(42)])));
        for (let i = 0; i < 3; i++) socket.write(message(6, 9, 1, Buffer.alloc(100, i), 33 * i));
      }
      const acks = all.filter((each) => each.type === 3);
      const pong = all.find((each) => each.type === 4 && each.payload.readUInt16BE(0) === 7);
      // The play ends once the client answered the ping and acknowledged the window (else the test times out).
      if (pong && acks.length > 0) {
        acknowledged = acks[0]?.payload.readUInt32BE(0) ?? 0;
        pinged = pong.payload.readUInt32BE(2);
        socket.end();
      }
    });
    const session = playRtmp(url, (media) => got.push(media));
    const ended = await session.ended;
    expect(connect).toEqual([
      'connect',
      1,
      expect.objectContaining({ app: 'live', tcUrl: `rtmp://127.0.0.1:${new URL(url).port}/live` }),
    ]);
    expect(play.slice(0, 4)).toEqual(['play', 0, null, 'stream?relay=secret']);
    expect(got.map((media) => [media.type, media.timestamp, media.payload.length])).toEqual([
      [9, 0, 100],
      [9, 33, 100],
      [9, 66, 100],
    ]);
    expect(acknowledged).toBeGreaterThanOrEqual(200);
    expect(pinged).toBe(42);
    expect(ended).toBeNull();
  });

  it('ends with an error on a malformed chunk stream, and when the server closes before the play began', async () => {
    const malformed = await peer((socket, received) => {
      if (answer(socket, received) === 'play') socket.write(Buffer.from([0x46, 0, 0, 0, 0, 0, 9, 9]));
    });
    expect(await playRtmp(malformed, () => {}).ended).toMatch('began without its first header');
    await new Promise((resolve) => server?.close(resolve));
    const refusing = await peer((socket, received) => {
      if (received.type === 20) socket.destroy();
    });
    expect(await playRtmp(refusing, () => {}).ended).toBe('RTMP play closed before it began');
  });
});
