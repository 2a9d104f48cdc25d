/// <reference path="./s3rver.d.ts" />
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from '@20minutes/s3rver';

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface LocalS3Server {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  port: number;
  /** A key pair the server accepts, made for this server. */
  credentials: S3Credentials;
  /** Where the server keeps buckets and objects, as files. */
  directory: string;
  close(): Promise<void>;
}

interface S3rverAccount {
  createKeyPair(accessKeyId: string, secretAccessKey: string): void;
  revokeAccessKey(accessKeyId: string): void;
}

/** s3rver knows one account; its key pairs are what signatures are checked against. */
function s3rverAccount(): S3rverAccount {
  const require = createRequire(import.meta.url);
  return (require('@20minutes/s3rver/lib/models/account.js') as { DUMMY_ACCOUNT: S3rverAccount }).DUMMY_ACCOUNT;
}

/**
 * A real S3-compatible server (s3rver: signature v4 checked, objects kept as files) on 127.0.0.1 and a
 * free port, with the given buckets and a fresh key pair. Close it after the tests.
 */
export async function startLocalS3(buckets: string[]): Promise<LocalS3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'streamcloud-s3-'));
  const credentials = {
    accessKeyId: `SC${randomBytes(9).toString('hex').toUpperCase()}`,
    secretAccessKey: randomBytes(30).toString('base64url'),
  };
  const account = s3rverAccount();
  account.createKeyPair(credentials.accessKeyId, credentials.secretAccessKey);
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const address = await server.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    port: address.port,
    credentials,
    directory,
    close: async () => {
      account.revokeAccessKey(credentials.accessKeyId);
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
