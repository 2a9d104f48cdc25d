import { type LocalS3Server, startLocalS3 } from '@streamcloud/s3/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MatrixRow, ownerOnly, type Roles, roleMatrixTests, signedIn, useTestApp } from '../../../test/helpers.js';
import type { StorageUsage } from './storage-usage.js';

const KEY = Buffer.alloc(32, 7);

/** Recordings do not exist yet: the test decides which storages are "in use". */
const inUse = new Map<string, number>();
const usage: StorageUsage = { recordingsUsing: async (id) => inUse.get(id) ?? 0 };

const t = useTestApp({ storageEncryptionKey: KEY, storageUsage: usage }, { roles: true });
let s3: LocalS3Server;
beforeAll(async () => {
  s3 = await startLocalS3(['media', 'other']);
});
afterAll(() => s3.close());

/** The role matrix's accounts and alice's storage. */
interface World extends Roles {
  /** alice's storage */
  storageId: string;
}

const compatible = (overrides: Record<string, unknown> = {}) => ({
  name: 'Recordings',
  type: 'AmazonS3Compatible',
  ...s3.credentials,
  regionName: '',
  bucket: 'media',
  path: 'live/recordings',
  endpoint: s3.endpoint,
  ...overrides,
});

let w: World;
beforeEach(async () => {
  inUse.clear();
  const created = await t.roles.call('USER owner', 'POST', '/api/v1/storages', compatible());
  expect(created.statusCode).toBe(201);
  w = { ...t.roles, storageId: created.json().id };
});

const call = (...args: Parameters<Roles['call']>) => w.call(...args);

const row = async (id: string) =>
  (await sql<Record<string, unknown>>`select * from storages where id = ${id}`.execute(t.database.db)).rows[0];

describe('role matrix', () => {
  // The storage under test belongs to alice ("USER owner"); "USER other" is bob; impersonating acts as alice.
  const matrix: MatrixRow<World>[] = [
    {
      name: 'GET /storages',
      call: () => ['GET', '/api/v1/storages'],
      expected: signedIn(200),
    },
    {
      name: 'POST /storages',
      call: () => ['POST', '/api/v1/storages', compatible({ name: 'Another' })],
      expected: signedIn(201),
    },
    {
      name: 'GET /storages/{id}',
      call: (w) => ['GET', `/api/v1/storages/${w.storageId}`],
      expected: ownerOnly(200),
    },
    {
      name: 'PUT /storages/{id}',
      call: (w) => ['PUT', `/api/v1/storages/${w.storageId}`, compatible({ name: 'Renamed', secretAccessKey: '' })],
      expected: ownerOnly(200),
    },
    {
      name: 'DELETE /storages/{id}',
      call: (w) => ['DELETE', `/api/v1/storages/${w.storageId}`],
      expected: ownerOnly(204),
    },
    {
      name: 'POST /storages/{id}/check',
      call: (w) => ['POST', `/api/v1/storages/${w.storageId}/check`],
      expected: ownerOnly(200),
    },
  ];

  roleMatrixTests(matrix, {
    roles: () => w,
    subject: async () => w,
    check: (response) => {
      if (response.statusCode === 404)
        expect(response.json()).toEqual({ message: 'Storage not found', code: 'NOT_FOUND' });
      if (response.statusCode === 401) expect(response.json().code).toBe('UNAUTHORIZED');
    },
  });

  it('a USER of another account changes nothing of the owner’s storage', async () => {
    await call('USER other', 'PUT', `/api/v1/storages/${w.storageId}`, compatible({ name: 'Hijacked' }));
    await call('USER other', 'DELETE', `/api/v1/storages/${w.storageId}`);
    expect(await row(w.storageId)).toMatchObject({ name: 'Recordings' });
  });
});

describe('GET /storages', () => {
  beforeEach(async () => {
    for (const [caller, name] of [
      ['USER other', 'bob bucket'],
      ['ADMIN', 'admin bucket'],
      ['USER owner', 'archive'],
    ] as const) {
      const response = await call(caller, 'POST', '/api/v1/storages?check=false', compatible({ name }));
      expect(response.statusCode).toBe(201);
    }
  });

  const names = (response: { json(): unknown }) => (response.json() as Array<{ name: string }>).map((s) => s.name);

  it('a USER sees only its own storages, sorted by name', async () => {
    expect(names(await call('USER owner', 'GET', '/api/v1/storages'))).toEqual(['archive', 'Recordings']);
    expect(names(await call('USER other', 'GET', '/api/v1/storages'))).toEqual(['bob bucket']);
    expect(names(await call('ADMIN impersonating owner', 'GET', '/api/v1/storages'))).toEqual([
      'archive',
      'Recordings',
    ]);
  });

  it('an ADMIN sees every account’s, with the owner, and may filter by owner', async () => {
    const all = await call('ADMIN', 'GET', '/api/v1/storages');
    expect(names(all)).toEqual(['admin bucket', 'archive', 'bob bucket', 'Recordings']);
    expect(all.json().find((s: { name: string }) => s.name === 'bob bucket')).toMatchObject({
      ownerId: w.other.id,
      ownerUsername: 'bob',
    });
    expect(names(await call('ADMIN', 'GET', `/api/v1/storages?ownerId=${w.owner.id}`))).toEqual([
      'archive',
      'Recordings',
    ]);
  });

  it('a USER filtering by another owner gets nothing', async () => {
    expect(names(await call('USER owner', 'GET', `/api/v1/storages?ownerId=${w.other.id}`))).toEqual([]);
  });
});

describe('POST /storages', () => {
  it('answers the storage with the secret only as a flag, and the connection check', async () => {
    const response = await call('USER owner', 'POST', '/api/v1/storages', compatible({ name: '  Trimmed  ' }));
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      id: expect.any(String),
      name: 'Trimmed',
      type: 'AmazonS3Compatible',
      accessKeyId: s3.credentials.accessKeyId,
      secretAccessKeySet: true,
      regionName: null,
      bucket: 'media',
      path: 'live/recordings',
      endpoint: s3.endpoint,
      ownerId: w.owner.id,
      ownerUsername: 'alice',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      check: { ok: true, checks: expect.any(Array) },
      warning: null,
    });
    expect(body.check.checks.map((c: { name: string; ok: boolean }) => [c.name, c.ok])).toEqual([
      ['bucket', true],
      ['write', true],
      ['cleanup', true],
    ]);
  });

  it('saves even when the connection check fails, and says so in `warning`', async () => {
    const response = await call('USER owner', 'POST', '/api/v1/storages', compatible({ bucket: 'missing' }));
    expect(response.statusCode).toBe(201);
    expect(response.json().check.ok).toBe(false);
    expect(response.json().warning).toBe(
      'Saved, but the connection check failed: Bucket "missing" does not exist (HTTP 404)',
    );
    expect(await row(response.json().id)).toMatchObject({ bucket: 'missing' });
  });

  it('skips the check with ?check=false', async () => {
    const response = await call('USER owner', 'POST', '/api/v1/storages?check=false', compatible());
    expect(response.json()).toMatchObject({ check: null, warning: null });
  });

  it('an Amazon S3 storage keeps no endpoint; the region is kept', async () => {
    const response = await call(
      'USER owner',
      'POST',
      '/api/v1/storages?check=false',
      compatible({ type: 'AmazonS3', endpoint: '', regionName: 'eu-west-1', path: '' }),
    );
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ type: 'AmazonS3', endpoint: null, regionName: 'eu-west-1', path: null });
  });

  it('an ADMIN may create a storage for another account', async () => {
    const response = await call('ADMIN', 'POST', '/api/v1/storages?check=false', compatible({ ownerId: w.other.id }));
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ ownerId: w.other.id, ownerUsername: 'bob' });
    const bobs = await call('USER other', 'GET', '/api/v1/storages');
    expect(bobs.json()).toHaveLength(1);
  });

  it('an ADMIN creating for an unknown account gets 400', async () => {
    const response = await call(
      'ADMIN',
      'POST',
      '/api/v1/storages?check=false',
      compatible({ ownerId: '00000000-0000-4000-8000-000000000000' }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Owner account does not exist', code: 'UNKNOWN_OWNER' });
  });

  it('a USER cannot create a storage for another account (403), but may name itself', async () => {
    const denied = await call('USER owner', 'POST', '/api/v1/storages', compatible({ ownerId: w.other.id }));
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Only administrators may create a storage for another account');
    const impersonated = await call(
      'ADMIN impersonating owner',
      'POST',
      '/api/v1/storages',
      compatible({ ownerId: w.other.id }),
    );
    expect(impersonated.statusCode).toBe(403);
    const self = await call('USER owner', 'POST', '/api/v1/storages?check=false', compatible({ ownerId: w.owner.id }));
    expect(self.statusCode).toBe(201);
    const count = await sql<{ n: number }>`select count(*)::int as n from storages`.execute(t.database.db);
    expect(count.rows[0]?.n).toBe(2);
  });
});

describe('validation (section 5): 400 with the field and the rule, nothing saved', () => {
  const long = 'x'.repeat(256);
  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ['name missing', { name: undefined }, 'body.name', 'Name is required'],
    ['name blank', { name: '   ' }, 'body.name', 'Name is required'],
    ['name too long', { name: long }, 'body.name', 'Name must be at most 255 characters'],
    ['type missing', { type: undefined }, 'body.type', 'Type is required'],
    ['type unknown', { type: 'GoogleCloud' }, 'body.type', 'Type must be AmazonS3 or AmazonS3Compatible'],
    ['access key ID missing', { accessKeyId: '' }, 'body.accessKeyId', 'Access key ID is required'],
    [
      'access key ID too long',
      { accessKeyId: long },
      'body.accessKeyId',
      'Access key ID must be at most 255 characters',
    ],
    ['secret missing', { secretAccessKey: undefined }, 'body.secretAccessKey', 'Secret access key is required'],
    ['secret blank', { secretAccessKey: '' }, 'body.secretAccessKey', 'Secret access key is required'],
    [
      'secret too long',
      { secretAccessKey: long },
      'body.secretAccessKey',
      'Secret access key must be at most 255 characters',
    ],
    ['bucket missing', { bucket: undefined }, 'body.bucket', 'Bucket is required'],
    ['bucket too long', { bucket: long }, 'body.bucket', 'Bucket must be at most 255 characters'],
    ['region too long', { regionName: long }, 'body.regionName', 'Region name must be at most 255 characters'],
    ['path too long', { path: long }, 'body.path', 'Path must be at most 255 characters'],
    [
      'endpoint missing for S3-compatible',
      { endpoint: '' },
      'body.endpoint',
      'Endpoint is required for S3-compatible storage',
    ],
    [
      'endpoint not a URL',
      { endpoint: 'minio.local:9000' },
      'body.endpoint',
      'Endpoint must be a valid http or https URL',
    ],
    [
      'endpoint not http(s)',
      { endpoint: 'ftp://minio.local' },
      'body.endpoint',
      'Endpoint must be a valid http or https URL',
    ],
    ['endpoint too long', { endpoint: `http://${long}` }, 'body.endpoint', 'Endpoint must be at most 255 characters'],
    [
      'endpoint given for Amazon S3',
      { type: 'AmazonS3', endpoint: 'http://minio.local' },
      'body.endpoint',
      'Endpoint applies only to S3-compatible storage',
    ],
    [
      'Amazon S3 region not a region',
      { type: 'AmazonS3', endpoint: '', regionName: 'EU West' },
      'body.regionName',
      'Region name may contain only lowercase letters, digits and hyphens (for example eu-west-1)',
    ],
    ['unknown field', { bucketPolicy: 'public' }, 'body', 'Unrecognized key: "bucketPolicy"'],
  ];

  for (const [name, change, path, message] of cases) {
    it(`create: ${name}`, async () => {
      const before = await sql<{ n: number }>`select count(*)::int as n from storages`.execute(t.database.db);
      const response = await call('USER owner', 'POST', '/api/v1/storages', compatible(change));
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('VALIDATION');
      expect(response.json().errors).toContainEqual({ path, message });
      const after = await sql<{ n: number }>`select count(*)::int as n from storages`.execute(t.database.db);
      expect(after.rows[0]?.n).toBe(before.rows[0]?.n);
    });
  }

  // On update a missing or blank secret keeps the stored one, so those two are not errors there.
  for (const [name, change, path, message] of cases.filter(([name]) => !/^secret (missing|blank)/.test(name))) {
    it(`update: ${name}`, async () => {
      const before = await row(w.storageId);
      const response = await call('USER owner', 'PUT', `/api/v1/storages/${w.storageId}`, compatible(change));
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toContainEqual({ path, message });
      expect(await row(w.storageId)).toEqual(before);
    });
  }

  it('a null, absent or non-object body answers 400, not 500, and saves nothing', async () => {
    const before = await row(w.storageId);
    for (const [method, url] of [
      ['POST', '/api/v1/storages'],
      ['PUT', `/api/v1/storages/${w.storageId}`],
    ] as const) {
      for (const payload of ['null', undefined, '[]', '"text"', '42']) {
        const response = await t.request({
          method,
          url,
          token: w.owner.token,
          ...(payload === undefined ? {} : { payload, headers: { 'content-type': 'application/json' } }),
        });
        expect(response.statusCode, `${method} ${payload}: ${response.body}`).toBe(400);
        expect(response.json().errors).toContainEqual(expect.objectContaining({ path: 'body' }));
      }
    }
    expect(await row(w.storageId)).toEqual(before);
    const count = await sql<{ n: number }>`select count(*)::int as n from storages`.execute(t.database.db);
    expect(count.rows[0]?.n).toBe(1);
  });

  it('ownerId cannot be changed by an update', async () => {
    const response = await call('ADMIN', 'PUT', `/api/v1/storages/${w.storageId}`, compatible({ ownerId: w.other.id }));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toContainEqual({ path: 'body', message: 'Unrecognized key: "ownerId"' });
  });

  it('the id must be a UUID', async () => {
    const response = await call('USER owner', 'GET', '/api/v1/storages/not-a-uuid');
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toContainEqual({ path: 'params.id', message: 'Must be a UUID' });
  });
});

describe('PUT /storages/{id}', () => {
  it('replaces the settings and keeps the stored secret when it is left out', async () => {
    const before = await row(w.storageId);
    const { secretAccessKey: _, ...withoutSecret } = compatible({ name: 'Renamed', path: '/vod/' });
    const response = await call('USER owner', 'PUT', `/api/v1/storages/${w.storageId}`, withoutSecret);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ name: 'Renamed', path: '/vod/', secretAccessKeySet: true, warning: null });
    expect(response.json().check.ok).toBe(true);
    const after = await row(w.storageId);
    expect(after?.secret_access_key_enc).toBe(before?.secret_access_key_enc);
    expect((after!.updated_at as Date).getTime()).toBeGreaterThanOrEqual((before!.updated_at as Date).getTime());
  });

  it('replaces the secret when one is given; the check then uses it', async () => {
    const before = await row(w.storageId);
    const response = await call(
      'USER owner',
      'PUT',
      `/api/v1/storages/${w.storageId}`,
      compatible({ secretAccessKey: 'not-the-secret' }),
    );
    expect(response.statusCode).toBe(200);
    expect((await row(w.storageId))?.secret_access_key_enc).not.toBe(before?.secret_access_key_enc);
    expect(response.json().warning).toBe(
      'Saved, but the connection check failed: The secret access key is wrong: the server refused the request signature (SignatureDoesNotMatch)',
    );
    expect(JSON.stringify(response.json())).not.toContain('not-the-secret');
  });

  it('switching to Amazon S3 drops the endpoint', async () => {
    const response = await call(
      'USER owner',
      'PUT',
      `/api/v1/storages/${w.storageId}?check=false`,
      compatible({ type: 'AmazonS3', endpoint: null, secretAccessKey: undefined }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ type: 'AmazonS3', endpoint: null, check: null });
  });
});

describe('DELETE /storages/{id}', () => {
  it('deletes the storage', async () => {
    expect((await call('USER owner', 'DELETE', `/api/v1/storages/${w.storageId}`)).statusCode).toBe(204);
    expect(await row(w.storageId)).toBeUndefined();
    expect((await call('USER owner', 'GET', `/api/v1/storages/${w.storageId}`)).statusCode).toBe(404);
  });

  it('refuses with 409 while recordings use the storage, for the owner and the ADMIN alike', async () => {
    inUse.set(w.storageId, 2);
    for (const caller of ['USER owner', 'ADMIN'] as const) {
      const response = await call(caller, 'DELETE', `/api/v1/storages/${w.storageId}`);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        message: 'The storage is used by 2 recordings and cannot be deleted',
        code: 'STORAGE_IN_USE',
      });
    }
    inUse.set(w.storageId, 1);
    const one = await call('USER owner', 'DELETE', `/api/v1/storages/${w.storageId}`);
    expect(one.json().message).toBe('The storage is used by 1 recording and cannot be deleted');
    expect(await row(w.storageId)).toBeDefined();
  });

  it('a row still referencing the storage is refused by the database with the same 409', async () => {
    await sql`create table storage_ref_probe (storage_id uuid references storages (id) on delete restrict)`.execute(
      t.database.db,
    );
    try {
      await sql`insert into storage_ref_probe values (${w.storageId})`.execute(t.database.db);
      const response = await call('USER owner', 'DELETE', `/api/v1/storages/${w.storageId}`);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        message: 'The storage is used by a recording and cannot be deleted',
        code: 'STORAGE_IN_USE',
      });
    } finally {
      await sql`drop table storage_ref_probe`.execute(t.database.db);
    }
  });
});

describe('the secret access key', () => {
  it('is never in any answer, nor stored in clear, nor audited', async () => {
    const secret = s3.credentials.secretAccessKey;
    const created = await call('USER owner', 'POST', '/api/v1/storages', compatible());
    expect(created.json().check.ok).toBe(true);
    const id = created.json().id as string;
    const updated = await call(
      'ADMIN',
      'PUT',
      `/api/v1/storages/${id}`,
      compatible({ secretAccessKey: `${secret}-2` }),
    );
    expect(updated.json().check.ok).toBe(false);
    const answers = [
      created,
      updated,
      await call('USER owner', 'GET', `/api/v1/storages/${id}`),
      await call('ADMIN', 'GET', '/api/v1/storages'),
      await call('USER owner', 'GET', '/api/v1/storages'),
      await call('USER owner', 'POST', `/api/v1/storages/${id}/check`),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBeLessThan(300);
      expect(answer.body).not.toContain(secret);
      expect(answer.body).not.toContain('secretAccessKey"');
    }
    const stored = await row(id);
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(stored?.secret_access_key_enc).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]+$/);
    const audit = await sql<{ action: string; details: unknown; acting_admin_id: string | null }>`
      select action, details, acting_admin_id from audit_log where target_type = 'storage' and target_id = ${id}
      order by id`.execute(t.database.db);
    expect(audit.rows.map((entry) => entry.action)).toEqual(['storage.create', 'storage.update']);
    expect(JSON.stringify(audit.rows)).not.toContain(secret);
    expect(audit.rows[1]?.details).toMatchObject({ secretAccessKeyChanged: true });
  });

  it('is sealed for its own row: a ciphertext moved to another storage does not open', async () => {
    const second = await call('USER owner', 'POST', '/api/v1/storages?check=false', compatible({ name: 'Second' }));
    const secondId = second.json().id as string;
    await sql`update storages set secret_access_key_enc = (select secret_access_key_enc from storages where id = ${w.storageId})
      where id = ${secondId}`.execute(t.database.db);
    const response = await call('USER owner', 'POST', `/api/v1/storages/${secondId}/check`);
    expect(response.statusCode).toBe(200);
    expect(response.json().ok).toBe(false);
    expect(response.json().checks[0].message).toMatch(/cannot be decrypted/);
  });

  it('writes made while impersonating record the acting admin', async () => {
    await call(
      'ADMIN impersonating owner',
      'PUT',
      `/api/v1/storages/${w.storageId}?check=false`,
      compatible({ name: 'X' }),
    );
    const audit = await sql<{ actor_id: string; acting_admin_id: string | null }>`
      select actor_id, acting_admin_id from audit_log where action = 'storage.update'`.execute(t.database.db);
    expect(audit.rows).toEqual([{ actor_id: w.owner.id, acting_admin_id: w.admin.id }]);
  });
});

describe('OpenAPI', () => {
  it('documents every storage route, with the secret write-only', async () => {
    const response = await t.request({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    const paths = response.json().paths as Record<string, Record<string, { requestBody?: unknown }>>;
    expect(Object.keys(paths['/api/v1/storages'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/api/v1/storages/{id}'] ?? {}).sort()).toEqual(['delete', 'get', 'put']);
    expect(Object.keys(paths['/api/v1/storages/{id}/check'] ?? {})).toEqual(['post']);
    const document = JSON.stringify(paths['/api/v1/storages']?.post);
    expect(document).toContain('secretAccessKey');
    expect(document).toContain('secretAccessKeySet');
  });
});
