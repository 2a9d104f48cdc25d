import { Readable } from 'node:stream';
import { HeadBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { addressPolicy, guardedAgents } from '@streamcloud/net-guard';
import { createS3Client } from '@streamcloud/s3';
import { type LocalS3Server, startLocalS3 } from '@streamcloud/s3/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';

let s3: LocalS3Server;
beforeAll(async () => {
  s3 = await startLocalS3(['shared']);
});
afterAll(async () => {
  await s3?.close();
});

it("destroying one S3 client leaves the other calls on the shared agents alone (a finished upload does not cut the others')", async () => {
  const agents = guardedAgents(addressPolicy({ allowPrivate: true }));
  const target = {
    type: 'AmazonS3Compatible' as const,
    bucket: 'shared',
    path: null,
    regionName: null,
    endpoint: s3.endpoint,
    ...s3.credentials,
  };
  // An upload whose body stays open until the other client is done and destroyed.
  const gate: { open?: () => void } = {};
  const released = new Promise<void>((resolve) => {
    gate.open = resolve;
  });
  const half = Buffer.alloc(64 * 1024, 1);
  const body = Readable.from(
    (async function* () {
      yield half;
      await released;
      yield half;
    })(),
  );
  const uploading = createS3Client(target, { agents });
  const upload = uploading.send(
    new PutObjectCommand({ Bucket: 'shared', Key: 'long', Body: body, ContentLength: half.length * 2 }),
  );
  const other = createS3Client(target, { agents });
  await other.send(new HeadBucketCommand({ Bucket: 'shared' }));
  other.destroy();
  gate.open?.();
  await expect(upload).resolves.toMatchObject({ $metadata: { httpStatusCode: 200 } });
  uploading.destroy();
});
