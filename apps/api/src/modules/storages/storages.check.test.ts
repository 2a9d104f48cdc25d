import { readdir } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type { StorageCheckResult } from '@streamcloud/contract';
import { createNetGuard, loopbackOnly } from '@streamcloud/net-guard';
import { createS3Client, describeFailure, keyPrefix, type S3Target } from '@streamcloud/s3';
import { type LocalS3Server, startLocalS3 } from '@streamcloud/s3/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestAccount, useTestApp } from '../../../test/helpers.js';
import { S3ConnectionChecker } from './s3-connection.js';

const t = useTestApp({ storageEncryptionKey: Buffer.alloc(32, 9) });
let s3: LocalS3Server;
let user: TestAccount;
beforeAll(async () => {
  s3 = await startLocalS3(['media']);
});
afterAll(() => s3.close());
beforeEach(async () => {
  user = await t.createAccount('USER', 'alice');
});

const target = (overrides: Partial<S3Target> = {}): S3Target => ({
  type: 'AmazonS3Compatible',
  ...s3.credentials,
  regionName: null,
  bucket: 'media',
  path: 'live/recordings',
  endpoint: s3.endpoint,
  ...overrides,
});

/** Creates the storage through the API (without the check on save) and checks it through the API. */
async function checkThroughApi(overrides: Partial<S3Target> = {}): Promise<StorageCheckResult> {
  const settings = target(overrides);
  const created = await t.request({
    method: 'POST',
    url: '/api/v1/storages?check=false',
    token: user.token,
    payload: { name: 'Under test', ...settings },
  });
  expect(created.statusCode, created.body).toBe(201);
  const response = await t.request({
    method: 'POST',
    url: `/api/v1/storages/${created.json().id}/check`,
    token: user.token,
  });
  expect(response.statusCode).toBe(200);
  return response.json();
}

const summary = (result: StorageCheckResult) => result.checks.map((c) => [c.name, c.ok, c.message]);

/** Every file the S3 server keeps, relative to its directory. */
async function storedFiles(): Promise<string[]> {
  return (await readdir(s3.directory, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(s3.directory.length + 1));
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('connection check against a real local S3 server', () => {
  it('passes: the bucket answers, a marker is written under the path and removed', async () => {
    const result = await checkThroughApi();
    expect(result.ok).toBe(true);
    expect(summary(result)).toEqual([
      ['bucket', true, `Bucket "media" is reachable at 127.0.0.1:${s3.port}`],
      [
        'write',
        true,
        expect.stringMatching(/^Wrote the test object "live\/recordings\/\.streamcloud-check-[0-9a-f-]{36}"$/),
      ],
      ['cleanup', true, expect.stringMatching(/^Deleted the test object "live\/recordings\/\.streamcloud-check-/)],
    ]);
    expect((await storedFiles()).filter((file) => file.includes('streamcloud-check'))).toEqual([]);
  });

  it('fails on a wrong secret, saying the secret is wrong', async () => {
    const result = await checkThroughApi({ secretAccessKey: 'wrong-secret' });
    expect(result.ok).toBe(false);
    expect(summary(result)).toEqual([
      [
        'bucket',
        false,
        'The secret access key is wrong: the server refused the request signature (SignatureDoesNotMatch)',
      ],
      ['write', false, 'Not tried: the bucket is not reachable'],
      ['cleanup', false, 'Not tried: nothing was written'],
    ]);
  });

  it('fails on an unknown access key ID', async () => {
    const result = await checkThroughApi({ accessKeyId: 'NOBODY' });
    expect(result.checks[0]).toEqual({
      name: 'bucket',
      ok: false,
      message: 'The access key ID is not known to the server (InvalidAccessKeyId)',
    });
  });

  it('fails on an unknown bucket', async () => {
    const result = await checkThroughApi({ bucket: 'no-such-bucket' });
    expect(result.ok).toBe(false);
    expect(result.checks[0]).toEqual({
      name: 'bucket',
      ok: false,
      message: 'Bucket "no-such-bucket" does not exist (HTTP 404)',
    });
  });

  it('fails on a closed port, quickly, with 200 and not a server error', async () => {
    const port = await closedPort();
    const started = Date.now();
    const result = await checkThroughApi({ endpoint: `http://127.0.0.1:${port}` });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.ok).toBe(false);
    expect(result.checks[0]).toEqual({
      name: 'bucket',
      ok: false,
      message: `127.0.0.1:${port} cannot be reached from the control plane: check the endpoint's host and port (private, loopback and link-local addresses are refused unless the operator allows private networks)`,
    });
  });

  it('gives up on a server that never answers after the timeout', async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const started = Date.now();
      const result = await new S3ConnectionChecker(300, createNetGuard(loopbackOnly).agents).check(
        target({ endpoint: `http://127.0.0.1:${port}` }),
      );
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(result.checks[0]).toEqual({
        name: 'bucket',
        ok: false,
        message: `No answer from 127.0.0.1:${port} within 0.3 s: check the endpoint and that the server is up`,
      });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('the check on save reports the same failure as a warning, and the storage is saved', async () => {
    const port = await closedPort();
    const response = await t.request({
      method: 'POST',
      url: '/api/v1/storages',
      token: user.token,
      payload: { name: 'Offline', ...target({ endpoint: `http://127.0.0.1:${port}` }) },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().warning).toBe(
      `Saved, but the connection check failed: 127.0.0.1:${port} cannot be reached from the control plane: check the endpoint's host and port (private, loopback and link-local addresses are refused unless the operator allows private networks)`,
    );
  });
});

describe('how requests are addressed', () => {
  /** Captures the request the SDK would send, without sending it. */
  async function addressed(settings: S3Target): Promise<{ hostname: string; path: string; authorization: string }> {
    const client = createS3Client(settings);
    let captured: { hostname: string; path: string; authorization: string } | undefined;
    client.middlewareStack.add(
      () => async (args) => {
        const request = args.request as { hostname: string; path: string; headers: Record<string, string> };
        captured = {
          hostname: request.hostname,
          path: request.path,
          authorization: request.headers.authorization ?? '',
        };
        throw new Error('captured');
      },
      { step: 'finalizeRequest', priority: 'low', name: 'capture' },
    );
    const { HeadBucketCommand } = await import('@aws-sdk/client-s3');
    await expect(client.send(new HeadBucketCommand({ Bucket: settings.bucket }))).rejects.toThrow('captured');
    client.destroy();
    if (!captured) throw new Error('nothing captured');
    return captured;
  }

  it('Amazon S3 builds the regional AWS endpoint from the region name, virtual-hosted', async () => {
    const request = await addressed(target({ type: 'AmazonS3', endpoint: null, regionName: 'eu-west-1' }));
    expect(request.hostname).toBe('media.s3.eu-west-1.amazonaws.com');
    expect(request.authorization).toContain('/eu-west-1/s3/aws4_request');
  });

  it('Amazon S3 without a region uses us-east-1', async () => {
    const request = await addressed(target({ type: 'AmazonS3', endpoint: null, regionName: null }));
    expect(request.hostname).toBe('media.s3.us-east-1.amazonaws.com');
  });

  it('S3-compatible uses the endpoint with path-style addressing', async () => {
    const request = await addressed(target({ endpoint: 'https://minio.example.net:9000', regionName: 'garage' }));
    expect(request.hostname).toBe('minio.example.net');
    expect(request.path).toBe('/media');
    expect(request.authorization).toContain('/garage/s3/aws4_request');
  });
});

describe('failure messages', () => {
  const cases: Array<[string, 'bucket' | 'write', unknown, (host: string) => string]> = [
    [
      'AccessDenied on write',
      'write',
      { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } },
      () => 'Access denied to "k" in bucket "media": the credentials lack permission (AccessDenied)',
    ],
    [
      'another region',
      'bucket',
      {
        name: 'Unknown',
        $metadata: { httpStatusCode: 301 },
        $response: { headers: { 'x-amz-bucket-region': 'eu-central-1' } },
      },
      () => 'The bucket is in another region (eu-central-1) than us-east-1: check the region name',
    ],
    [
      'host not found',
      'bucket',
      { code: 'ENOTFOUND' },
      (host) =>
        `${host} cannot be reached from the control plane: check the endpoint's host and port (private, loopback and link-local addresses are refused unless the operator allows private networks)`,
    ],
    [
      'address not allowed',
      'bucket',
      { code: 'ERR_ADDRESS_BLOCKED' },
      (host) =>
        `${host} cannot be reached from the control plane: check the endpoint's host and port (private, loopback and link-local addresses are refused unless the operator allows private networks)`,
    ],
    [
      'server failure',
      'bucket',
      { name: 'InternalError', $metadata: { httpStatusCode: 503 } },
      () => 'The server failed (HTTP 503): try again later',
    ],
    [
      'not an S3 server',
      'bucket',
      { name: 'Unknown', $metadata: { httpStatusCode: 418 } },
      (host) => `Unexpected answer from ${host} (HTTP 418): is it an S3 server?`,
    ],
  ];
  for (const [name, operation, error, message] of cases) {
    it(name, () => {
      expect(describeFailure(error, target(), operation, 'k')).toBe(message(new URL(s3.endpoint).host));
    });
  }

  it('the marker goes under the path without its outer slashes', () => {
    expect(keyPrefix('/a/b/')).toBe('a/b/');
    expect(keyPrefix('')).toBe('');
    expect(keyPrefix(null)).toBe('');
  });
});
