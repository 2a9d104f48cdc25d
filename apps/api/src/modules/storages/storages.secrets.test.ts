import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { startLocalS3 } from '@streamcloud/s3/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/helpers.js';
import { ConfigError, loadConfig } from '../../config.js';
import { parseEncryptionKey, persistentEncryptionKey, SecretBox, SecretBoxError } from '../../lib/secret-box.js';

describe('SecretBox (AES-256-GCM)', () => {
  const key = randomBytes(32);
  const box = new SecretBox(key);

  it('round-trips a secret, with a fresh IV each time', () => {
    const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    const first = box.seal(secret, 'storage-1');
    const second = box.seal(secret, 'storage-1');
    expect(first).not.toBe(second);
    expect(first).not.toContain(secret);
    expect(first).toMatch(/^v1:[\w-]{16}:[\w-]{22}:[\w-]+$/);
    expect(box.open(first, 'storage-1')).toBe(secret);
    expect(box.open(second, 'storage-1')).toBe(secret);
    expect(new SecretBox(Buffer.from(key)).open(first, 'storage-1')).toBe(secret);
  });

  it('round-trips any text, including non-ASCII and the empty string', () => {
    for (const secret of ['', 'ä€😀', 'x'.repeat(255)]) {
      expect(box.open(box.seal(secret, 'c'), 'c')).toBe(secret);
    }
  });

  it('refuses another key, another context and any alteration', () => {
    const sealed = box.seal('secret', 'storage-1');
    expect(() => new SecretBox(randomBytes(32)).open(sealed, 'storage-1')).toThrow(SecretBoxError);
    expect(() => box.open(sealed, 'storage-2')).toThrow(SecretBoxError);
    const [version, iv, tag, data] = sealed.split(':') as [string, string, string, string];
    const flipped = Buffer.from(data, 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => box.open([version, iv, tag, flipped.toString('base64url')].join(':'), 'storage-1')).toThrow(
      SecretBoxError,
    );
    expect(() => box.open([version, iv, 'AAAA', data].join(':'), 'storage-1')).toThrow(SecretBoxError);
    expect(() => box.open('secret', 'storage-1')).toThrow('Not a sealed value');
    expect(() => box.open(`v2:${iv}:${tag}:${data}`, 'storage-1')).toThrow('Not a sealed value');
  });

  it('needs a 32-byte key', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow('The key must be 32 bytes');
  });
});

describe('encryption key', () => {
  it('is read from base64 or base64url of exactly 32 bytes', () => {
    const key = randomBytes(32);
    expect(parseEncryptionKey(key.toString('base64'))).toEqual(key);
    expect(parseEncryptionKey(` ${key.toString('base64url')}\n`)).toEqual(key);
    expect(parseEncryptionKey(randomBytes(31).toString('base64'))).toBeNull();
    expect(parseEncryptionKey(randomBytes(33).toString('base64'))).toBeNull();
    expect(parseEncryptionKey('not base64 at all!')).toBeNull();
    expect(parseEncryptionKey('')).toBeNull();
  });

  describe('generated once under the data directory', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'streamcloud-key-'));
    });
    afterEach(() => rm(dir, { recursive: true, force: true }));

    it('is created with mode 0600 and then reused', async () => {
      const first = await persistentEncryptionKey(join(dir, 'data'), 'storage-encryption-key');
      expect(first).toHaveLength(32);
      const path = join(dir, 'data', 'storage-encryption-key');
      expect((await stat(path)).mode & 0o777).toBe(0o600);
      expect(parseEncryptionKey(await readFile(path, 'utf8'))).toEqual(first);
      expect(await persistentEncryptionKey(join(dir, 'data'), 'storage-encryption-key')).toEqual(first);
    });

    it('refuses a damaged key file rather than making a new key', async () => {
      await writeFile(join(dir, 'storage-encryption-key'), 'too short\n');
      await expect(persistentEncryptionKey(dir, 'storage-encryption-key')).rejects.toThrow(
        /does not hold a 32-byte key in base64/,
      );
    });
  });

  it('STORAGE_ENCRYPTION_KEY is validated by the configuration with a clear message', () => {
    const key = randomBytes(32);
    expect(loadConfig({ STORAGE_ENCRYPTION_KEY: key.toString('base64') }).storageEncryptionKey).toEqual(key);
    expect(loadConfig({}).storageEncryptionKey).toBeUndefined();
    expect(() => loadConfig({ STORAGE_ENCRYPTION_KEY: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ STORAGE_ENCRYPTION_KEY: 'short' })).toThrow(
      'STORAGE_ENCRYPTION_KEY: must be 32 bytes in base64 (generate one with: openssl rand -base64 32)',
    );
  });
});

describe('logs', () => {
  it('never carry the secret access key, even at trace level', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const [t, s3] = await Promise.all([
      startTestApp({ logger: { level: 'trace', stream }, storageEncryptionKey: randomBytes(32) }),
      startLocalS3(['media']),
    ]);
    try {
      const user = await t.createAccount('USER');
      const body = {
        name: 'Logged',
        type: 'AmazonS3Compatible',
        endpoint: s3.endpoint,
        bucket: 'media',
        ...s3.credentials,
      };
      const created = await t.request({ method: 'POST', url: '/api/v1/storages', token: user.token, payload: body });
      expect(created.json().check.ok).toBe(true);
      const id = created.json().id as string;
      await t.request({ method: 'PUT', url: `/api/v1/storages/${id}`, token: user.token, payload: body });
      await t.request({ method: 'POST', url: `/api/v1/storages/${id}/check`, token: user.token });
      const invalid = { ...body, name: '' };
      expect(
        (await t.request({ method: 'POST', url: '/api/v1/storages', token: user.token, payload: invalid })).statusCode,
      ).toBe(400);
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.join('')).not.toContain(s3.credentials.secretAccessKey);
    } finally {
      await Promise.all([t.close(), s3.close()]);
    }
  });
});
