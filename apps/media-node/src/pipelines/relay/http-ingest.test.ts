import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { SegmentIngest } from './http-ingest.js';
import { relayPolicies } from './outbound.js';

const { connections } = relayPolicies({ allowPrivate: true });
const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** An ingest endpoint on loopback that answers every POST with `status`. */
async function endpoint(status: number): Promise<URL> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(status).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.close());
  return new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/ingest/Streams(video-0.cmfv)`);
}

describe('CMAF ingest answers', () => {
  it('a destination refusing the stream (401, 403) ends the relay; other failures are worth retrying', async () => {
    for (const [status, text, kind] of [
      [401, 'Unauthorized', 'fatal'],
      [403, 'Forbidden', 'fatal'],
      [500, 'Internal Server Error', 'target'],
    ] as const) {
      const url = await endpoint(status);
      const ingest = new SegmentIngest(url, connections);
      ingest.send(Buffer.from('header'));
      const failure = await ingest.failed;
      expect(failure.kind).toBe(kind);
      expect(failure.message).toBe(`${url.origin}${url.pathname} answered ${status} ${text}`);
    }
  });

  it('a destination taking the segments accepts them, and counts the bytes on the wire', async () => {
    const ingest = new SegmentIngest(await endpoint(200), connections);
    let accepted = 0;
    ingest.onAccepted = () => accepted++;
    ingest.send(Buffer.alloc(1000));
    ingest.send(Buffer.alloc(2000));
    await ingest.end();
    expect(accepted).toBe(2);
    expect(ingest.bytesOut()).toBeGreaterThan(3000);
    ingest.abort();
  });
});
