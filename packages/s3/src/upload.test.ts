import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Client, type S3Target } from './client.js';
import { type LocalS3Server, startLocalS3 } from './testing.js';
import { UploadFailure, uploadFile } from './upload.js';

/** The uploader against a real S3-compatible server (s3rver on loopback), as the media node's recordings use it. */
const BUCKET = 'uploads';
let s3: LocalS3Server;
let dir: string;
let target: S3Target;
const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

beforeAll(async () => {
  s3 = await startLocalS3([BUCKET]);
  dir = await mkdtemp(join(tmpdir(), 'streamcloud-upload-test-'));
  target = {
    type: 'AmazonS3Compatible',
    bucket: BUCKET,
    path: null,
    regionName: null,
    endpoint: s3.endpoint,
    ...s3.credentials,
  };
});
afterAll(async () => {
  agents.http.destroy();
  await s3.close();
  await rm(dir, { recursive: true, force: true });
});

async function fileOf(bytes: number): Promise<string> {
  const file = join(dir, `${bytes}.bin`);
  await writeFile(file, randomBytes(bytes));
  return file;
}

const upload = (file: string, key: string, to = target, progress: number[] = []) =>
  uploadFile({
    target: to,
    agents,
    key,
    file,
    contentType: 'video/mp4',
    from: 'the test',
    onProgress: (bytes) => progress.push(bytes),
    signal: new AbortController().signal,
    backoffMs: [],
  });

describe('uploadFile', () => {
  it('puts a file of one part as one object and one larger in parts, each holding the file size', async () => {
    for (const size of [300_000, 9 * 1024 * 1024]) {
      const progress: number[] = [];
      expect(await upload(await fileOf(size), `rec/${size}.mp4`, target, progress)).toEqual({ size });
      expect(progress.at(-1)).toBe(size);
      const client = createS3Client(target);
      const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: `rec/${size}.mp4` }));
      client.destroy();
      expect(head.ContentLength).toBe(size);
    }
  });

  it('fails for good, in words and without the secret, when the storage refuses the credentials', async () => {
    const wrong = { ...target, secretAccessKey: 'not-the-secret' };
    const failure = await upload(await fileOf(1000), 'rec/refused.mp4', wrong).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UploadFailure);
    expect(String(failure)).toMatch(/secret access key is wrong|Access denied/);
    expect(String(failure)).not.toContain('not-the-secret');
  });
});
