import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { createS3Client, type S3ClientOptions, type S3Target } from '@streamcloud/s3';

/** How long the storage may be silent while ffmpeg reads. */
const STORAGE_IDLE_MS = 30_000;
const SINGLE_RANGE = /^bytes=\d{1,15}-\d{0,15}$/;

/**
 * One object of a storage served on loopback for ffmpeg, which seeks in it with byte ranges: each range is a
 * GetObject through the node's guarded agents (the operator's address policy), so ffmpeg itself connects to no
 * storage. The URL carries 128 random bits: another process on the machine cannot guess it.
 */
export async function serveObject(
  target: S3Target,
  key: string,
  agents: NonNullable<S3ClientOptions['agents']>,
): Promise<{ url: string; close(): Promise<void> }> {
  const client = createS3Client(target, { timeoutMs: STORAGE_IDLE_MS, agents });
  const path = `/${randomBytes(16).toString('hex')}.mp4`;
  const server: Server = createServer((request, response) => {
    if (request.url !== path || request.method !== 'GET') {
      response.writeHead(404).end();
      return;
    }
    const range = request.headers.range;
    client
      .send(
        new GetObjectCommand({
          Bucket: target.bucket,
          Key: key,
          ...(range && SINGLE_RANGE.test(range) ? { Range: range } : {}),
        }),
      )
      .then((answer) => {
        const headers: Record<string, string> = { 'content-type': 'video/mp4', 'accept-ranges': 'bytes' };
        if (answer.ContentLength !== undefined) headers['content-length'] = String(answer.ContentLength);
        if (answer.ContentRange) headers['content-range'] = answer.ContentRange;
        response.writeHead(answer.ContentRange ? 206 : 200, headers);
        const body = answer.Body as Readable;
        body.on('error', () => response.destroy());
        response.on('close', () => body.destroy());
        body.pipe(response);
      })
      .catch((error: { $metadata?: { httpStatusCode?: number } }) => {
        response.writeHead(error.$metadata?.httpStatusCode === 416 ? 416 : 502).end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        client.destroy();
      }),
  };
}
