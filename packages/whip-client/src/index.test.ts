import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offerSdp, postOffer } from './index.js';

/** A WHIP/WHEP endpoint double on loopback: it records each offer and answers 201 with a Location. */
const seen: { address: string | undefined; url: string | undefined; type: string | undefined; body: string }[] = [];
const server = createServer((req: IncomingMessage, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => {
    body += chunk.toString();
  });
  req.on('end', () => {
    seen.push({ address: req.socket.remoteAddress, url: req.url, type: req.headers['content-type'], body });
    if (req.url?.startsWith('/busy')) res.writeHead(429, { 'retry-after': '5' }).end();
    else res.writeHead(201, { location: '/whep/out/session-1', 'content-type': 'application/sdp' }).end('answer');
  });
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('WHIP/WHEP client', () => {
  it('makes a real offer with a video and an audio m-line in the direction asked', async () => {
    for (const direction of ['sendonly', 'recvonly'] as const) {
      const sdp = await offerSdp(direction);
      expect(sdp.match(/^m=(video|audio) /gm)).toEqual(['m=video ', 'm=audio ']);
      expect(sdp.match(new RegExp(`^a=${direction}$`, 'gm'))).toHaveLength(2);
    }
  });

  it('posts the offer as application/sdp from the address given, and answers status, Location and Retry-After', async () => {
    const sdp = await offerSdp('recvonly');
    expect(await postOffer(`${base}/whep/out?token=t`, sdp, '127.0.0.2')).toEqual({
      status: 201,
      location: '/whep/out/session-1',
      retryAfter: null,
    });
    expect(seen.at(-1)).toEqual({ address: '127.0.0.2', url: '/whep/out?token=t', type: 'application/sdp', body: sdp });
    expect(await postOffer(`${base}/busy`, sdp)).toEqual({ status: 429, location: null, retryAfter: '5' });
  });

  it('answers status 0 when nothing answers, rather than rejecting', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await postOffer(`http://127.0.0.1:${port}/whip/in`, 'v=0')).toEqual({
      status: 0,
      location: null,
      retryAfter: null,
    });
  });
});
