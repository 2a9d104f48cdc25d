import { mkdtemp, writeFile } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createS3Client } from '@streamcloud/s3';
import { type LocalS3Server, startLocalS3 } from '@streamcloud/s3/testing';
import { runTool } from './harness.js';

/**
 * A real S3 server for the recordings' tests (s3rver, started by the test) and what they check in it:
 * objects listed and downloaded with the AWS SDK, files probed by ffprobe, and a slow relay in front of
 * the server. No test runner inside: the e2e specs use it too.
 */

export { type LocalS3Server, startLocalS3 };

/** The S3 client of the tests: the same settings as the node's, on the local server's own key pair. */
export function s3Client(s3: LocalS3Server, bucket: string): S3Client {
  return createS3Client({
    type: 'AmazonS3Compatible',
    ...s3.credentials,
    regionName: null,
    bucket,
    path: null,
    endpoint: s3.endpoint,
  });
}

/** The objects under a prefix: key and size. */
export async function listObjects(
  s3: LocalS3Server,
  bucket: string,
  prefix: string,
): Promise<{ key: string; size: number }[]> {
  const client = s3Client(s3, bucket);
  try {
    const answer = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
    return (answer.Contents ?? []).map((object) => ({ key: object.Key ?? '', size: object.Size ?? 0 }));
  } finally {
    client.destroy();
  }
}

/** Puts an object on the server (what an owner keeps in their storage). */
export async function putObject(s3: LocalS3Server, bucket: string, key: string, body: Buffer): Promise<void> {
  const client = s3Client(s3, bucket);
  try {
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
  } finally {
    client.destroy();
  }
}

/** Downloads an object into a temporary file (for ffprobe); answers its path. */
export async function downloadObject(s3: LocalS3Server, bucket: string, key: string): Promise<string> {
  const client = s3Client(s3, bucket);
  try {
    const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const file = join(await mkdtemp(join(tmpdir(), 'streamcloud-object-')), key.split('/').at(-1) ?? 'object');
    await writeFile(
      file,
      await (answer.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
    );
    return file;
  } finally {
    client.destroy();
  }
}

export interface ProbedFile {
  duration: number;
  streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
  format: string;
}

/** ffprobe of a file: its duration, its tracks and its container. */
export async function probeFile(file: string): Promise<ProbedFile> {
  const { code, stdout, stderr } = await runTool(
    'ffprobe',
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
    30_000,
  );
  if (code !== 0) throw new Error(`ffprobe ${file}: ${stderr}`);
  const parsed = JSON.parse(stdout) as {
    format: { duration?: string; format_name: string };
    streams: ProbedFile['streams'];
  };
  return { duration: Number(parsed.format.duration), streams: parsed.streams, format: parsed.format.format_name };
}

/**
 * A TCP relay to the S3 server that passes at most `bytesPerSecond` from the client, so an upload takes
 * long enough for Uploading and its growing figures to be seen.
 */
export async function throttledRelay(
  targetPort: number,
  bytesPerSecond: number,
  port = 0,
): Promise<{ endpoint: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    sockets.add(client).add(upstream);
    const startedAt = Date.now();
    let passed = 0;
    let timer: NodeJS.Timeout | null = null;
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      passed += chunk.length;
      // Ahead of the rate: wait until the bytes passed so far are due.
      const ahead = (passed / bytesPerSecond) * 1000 - (Date.now() - startedAt);
      if (ahead > 0) {
        client.pause();
        timer = setTimeout(() => client.resume(), ahead);
      }
    });
    upstream.pipe(client);
    const close = () => {
      if (timer) clearTimeout(timer);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  return {
    endpoint: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
