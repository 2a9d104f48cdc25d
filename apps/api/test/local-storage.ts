import { PutObjectCommand } from '@aws-sdk/client-s3';
import { createS3Client, type S3Target } from '@streamcloud/s3';
import { type LocalS3Server, startLocalS3 } from '@streamcloud/s3/testing';
import { afterAll, beforeAll } from 'vitest';

export interface LocalStorage {
  /** The storage's target (bucket `media`, path `live`) on the file's local S3 server. */
  readonly target: S3Target;
  /** Puts an object into the bucket (`key` whole, path included). */
  put(key: string, body: Buffer | string): Promise<void>;
}

/**
 * A real S3 server on loopback for one test file, started before its tests with `objects` in its bucket (keys whole)
 * and closed after them: the storage recordings' and clips' files are served from.
 */
export function useLocalStorage(objects: Record<string, Buffer> = {}): LocalStorage {
  let s3: LocalS3Server | undefined;
  let target: S3Target | undefined;
  const storage: LocalStorage = {
    get target() {
      if (!target) throw new Error('The local S3 server is not started: use it inside a test or a hook');
      return target;
    },
    put: async (key, body) => {
      await createS3Client(storage.target).send(new PutObjectCommand({ Bucket: 'media', Key: key, Body: body }));
    },
  };
  beforeAll(async () => {
    s3 = await startLocalS3(['media']);
    const { credentials, endpoint } = s3;
    target = { type: 'AmazonS3Compatible', ...credentials, regionName: null, bucket: 'media', path: 'live', endpoint };
    for (const [key, body] of Object.entries(objects)) await storage.put(key, body);
  }, 60_000);
  afterAll(() => s3?.close());
  return storage;
}
