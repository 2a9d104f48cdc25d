import { createHash } from 'node:crypto';
import { ANTI_FORGERY_COOKIE, API_BASE, allRoutes } from '@streamcloud/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { raceForOne } from '../../../test/concurrency.js';
import { databaseState } from '../../../test/database-state.js';
import {
  expectValidationError,
  type Roles,
  roleMatrixTests,
  signedIn,
  startTestApp,
  type TestApp,
  TestClock,
  useTestApp,
} from '../../../test/helpers.js';
import { READ_KEY_SECRET_REFUSAL } from './api-keys.service.js';

const clock = new TestClock();
const t = useTestApp({ clock }, { roles: true });
const call = (...args: Parameters<Roles['call']>) => t.roles.call(...args);

/** Creates a key as a signed-in account; answers the created key's answer. */
async function createKey(
  token: string,
  body: { name?: string; scope?: 'read' | 'write'; expiresAt?: string | null } = {},
  app: TestApp = t,
) {
  const response = await app.request({
    method: 'POST',
    url: `${API_BASE}/api-keys`,
    token,
    payload: { name: 'ci', scope: 'write', ...body },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; key: string; prefix: string; scope: string };
}

const withKey = (key: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.request({ method, url, token: key, ...(payload ? { payload } : {}) });

describe('role matrix', () => {
  roleMatrixTests<{ id: string }>(
    [
      { name: 'GET /api-keys', call: () => ['GET', `${API_BASE}/api-keys`], expected: signedIn(200) },
      {
        name: 'POST /api-keys',
        call: () => ['POST', `${API_BASE}/api-keys`, { name: 'deploy', scope: 'read' }],
        // A key made while impersonating would outlive the impersonation.
        expected: { ...signedIn(201), 'ADMIN impersonating owner': 403 },
      },
      {
        name: 'DELETE /api-keys/{id}',
        call: (key) => ['DELETE', `${API_BASE}/api-keys/${key.id}`],
        expected: {
          anonymous: 401,
          'USER owner': 204,
          'USER other': 404,
          'ADMIN impersonating owner': 204,
          ADMIN: 204,
        },
      },
    ],
    { roles: () => t.roles, subject: () => createKey(t.roles.owner.token) },
  );
});

describe('POST /api-keys', () => {
  it('shows the key once, with its prefix, and stores only its SHA-256', async () => {
    const created = await createKey(t.roles.owner.token, { name: '  deploy ', scope: 'read' });
    expect(created.key).toMatch(/^sck_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ name: 'deploy', scope: 'read', prefix: created.key.slice(0, 10), expiresAt: null });
    const list = await call('USER owner', 'GET', `${API_BASE}/api-keys`);
    expect(list.json()).toEqual([{ ...created, key: undefined, lastUsedAt: null, lastUsedAddress: null }]);
    expect(list.body).not.toContain(created.key);
    const stored = await sql<{ key_hash: string }>`select key_hash from api_keys`.execute(t.database.db);
    expect(stored.rows).toEqual([{ key_hash: createHash('sha256').update(created.key).digest('base64url') }]);
    expect(JSON.stringify(await databaseState(t.database.db))).not.toContain(created.key);
  });

  it('refuses a bad name or an expiry in the past with 400 naming the field, and makes nothing', async () => {
    const before = await databaseState(t.database.db, ['audit_log']);
    expectValidationError(
      await call('USER owner', 'POST', `${API_BASE}/api-keys`, { name: ' ', scope: 'read' }),
      'body.name',
      'Name is required',
    );
    expectValidationError(
      await call('USER owner', 'POST', `${API_BASE}/api-keys`, { name: 'x', scope: 'admin' }),
      'body.scope',
    );
    expectValidationError(
      await call('USER owner', 'POST', `${API_BASE}/api-keys`, {
        name: 'x',
        expiresAt: new Date(Date.now() - 60_000).toISOString(),
      }),
      'body.expiresAt',
      'Expiry must be in the future',
    );
    expect(await databaseState(t.database.db, ['audit_log'])).toEqual(before);
  });

  it('audits creation and revocation', async () => {
    const created = await createKey(t.roles.owner.token, { name: 'deploy', scope: 'read' });
    await call('USER owner', 'DELETE', `${API_BASE}/api-keys/${created.id}`);
    const entries = await t.auditLog(2);
    expect(entries.map((entry) => [entry.action, entry.actor_id, entry.target_type, entry.target_id])).toEqual([
      ['api-key.revoke', t.roles.owner.id, 'api-key', created.id],
      ['api-key.create', t.roles.owner.id, 'api-key', created.id],
    ]);
  });
});

describe('a key acts as its account', () => {
  it('answers as the account, and lists its last use with time and address', async () => {
    const created = await createKey(t.roles.owner.token);
    const before = clock.now().getTime();
    const whoami = await t.request({
      method: 'GET',
      url: `${API_BASE}/accounts/whoami`,
      token: created.key,
      remoteAddress: '203.0.113.7',
    });
    expect(whoami.json()).toMatchObject({ id: t.roles.owner.id, username: 'alice', impersonatedBy: null });
    const [listed] = (await call('USER owner', 'GET', `${API_BASE}/api-keys`)).json();
    expect(listed.lastUsedAddress).toBe('203.0.113.7');
    expect(Date.parse(listed.lastUsedAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(listed.lastUsedAt)).toBeLessThanOrEqual(clock.now().getTime());
  });

  it("writes within a write key's scope, without the anti-forgery header a session needs", async () => {
    const created = await createKey(t.roles.owner.token);
    const cookie = { [ANTI_FORGERY_COOKIE]: 'planted.value' };
    const payload = {};
    const bySession = await t.request({
      method: 'POST',
      url: `${API_BASE}/inputs`,
      token: t.roles.owner.token,
      cookies: cookie,
      payload,
    });
    expect(bySession.statusCode).toBe(403);
    const byKey = await t.request({
      method: 'POST',
      url: `${API_BASE}/inputs`,
      token: created.key,
      cookies: cookie,
      payload,
    });
    expect(byKey.statusCode, byKey.body).toBe(201);
    const streams = await t.request({ method: 'GET', url: `${API_BASE}/inputs`, token: t.roles.owner.token });
    expect(streams.json().map((stream: { id: string }) => stream.id)).toEqual([byKey.json().id]);
  });

  it('reaches admin routes only when its account is ADMIN', async () => {
    const userKey = await createKey(t.roles.owner.token);
    const adminKey = await createKey(t.roles.admin.token, { scope: 'read' });
    expect((await withKey(userKey.key, 'GET', `${API_BASE}/accounts`)).statusCode).toBe(403);
    expect((await withKey(adminKey.key, 'GET', `${API_BASE}/accounts`)).statusCode).toBe(200);
  });

  it('cannot create keys nor change a password, even with the write scope of an ADMIN', async () => {
    const adminKey = await createKey(t.roles.admin.token);
    const before = await databaseState(t.database.db, ['api_key_uses']);
    const create = await withKey(adminKey.key, 'POST', `${API_BASE}/api-keys`, { name: 'more', scope: 'write' });
    expect(create.statusCode).toBe(403);
    const password = await withKey(adminKey.key, 'PUT', `${API_BASE}/accounts/${t.roles.owner.id}`, {
      password: 'another-secret',
    });
    expect(password.statusCode).toBe(403);
    expect(password.json().message).toBe('API keys cannot change passwords');
    expect(await databaseState(t.database.db, ['api_key_uses'])).toEqual(before);
    // Its other changes stay allowed.
    const email = await withKey(adminKey.key, 'PUT', `${API_BASE}/accounts/${t.roles.owner.id}`, {
      email: 'alice@example.com',
    });
    expect(email.statusCode, email.body).toBe(200);
  });
});

describe('scope enforcement over every route of the contract', () => {
  const signedInRoutes = allRoutes().filter(({ route }) => route.auth === 'user' || route.auth === 'admin');
  const urlOf = (path: string) => `${API_BASE}${path.replace(/:\w+/g, '00000000-0000-4000-8000-000000000000')}`;

  it('a read key is refused every non-GET with 403 and changes nothing', async () => {
    // An ADMIN's key, so admin routes too reach the scope check.
    const readKey = await createKey(t.roles.admin.token, { scope: 'read' });
    const writes = signedInRoutes.filter(({ route }) => route.method !== 'GET');
    expect(writes.length).toBeGreaterThan(40);
    const before = await databaseState(t.database.db);
    for (const { id, route } of writes) {
      const response = await withKey(readKey.key, route.method, urlOf(route.path), {});
      expect(response.statusCode, `${id}: ${response.body}`).toBe(403);
      expect(response.json().message, id).toBe(
        route.sessionOnly
          ? 'API keys cannot be used here: sign in to the console'
          : route.revealsSecret
            ? READ_KEY_SECRET_REFUSAL
            : 'This API key is read-only',
      );
    }
    expect(await databaseState(t.database.db)).toEqual(before);
  });

  it('a write key is refused the session-only routes (credentials, sessions, impersonation)', async () => {
    const writeKey = await createKey(t.roles.admin.token);
    const sessionOnly = signedInRoutes.filter(({ route }) => route.sessionOnly);
    expect(sessionOnly.map(({ id }) => id)).toEqual(
      expect.arrayContaining(['accountRoutes.impersonate', 'apiKeyRoutes.create', 'authRoutes.logout']),
    );
    for (const { id, route } of sessionOnly) {
      const response = await withKey(
        writeKey.key,
        route.method,
        urlOf(route.path),
        route.method === 'GET' ? undefined : {},
      );
      expect(response.statusCode, `${id}: ${response.body}`).toBe(403);
    }
  });
});

describe('secrets need a write key or a session', () => {
  /**
   * Fields of an answer named like a secret. Not secrets: `…Set`/`…Unreadable` (whether one is stored),
   * `accessKeyId` (the S3 key's public half), `objectKey`, `keyIntMax`/`keyMaxDist` (encoder settings).
   */
  const SECRET_FIELD = /secret|token|password|credential|^key$|previewKey|edgeKey/i;
  const NOT_SECRET = /(Set|Unreadable)$/;
  /**
   * Answers that carry a secret-named field yet are open to read keys, and why (docs/decisions.md, "Secrets
   * and read-scoped API keys"): a stream's and an output's access token are its connection details, shown with
   * the endpoint wherever the stream is (the spec's Input card), handed to publishers and viewers.
   */
  const OPEN_TO_READ_KEYS = new Set([
    'streamRoutes.get',
    'streamRoutes.create',
    'streamRoutes.update',
    'streamRoutes.listOutputs',
    'streamRoutes.createOutput',
  ]);
  const secretFields = (schema: unknown, found: string[] = []): string[] => {
    if (!schema || typeof schema !== 'object') return found;
    const node = schema as Record<string, unknown>;
    for (const [name, value] of Object.entries((node.properties as Record<string, unknown>) ?? {})) {
      if (SECRET_FIELD.test(name) && !NOT_SECRET.test(name)) found.push(name);
      secretFields(value, found);
    }
    for (const key of ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties']) {
      for (const child of ([] as unknown[]).concat(node[key] ?? [])) secretFields(child, found);
    }
    return found;
  };

  it('every route answering a secret-named field to an account is marked revealsSecret or session-only', () => {
    const answeringSecrets = allRoutes()
      .filter(({ route }) => (route.auth === 'user' || route.auth === 'admin') && route.response)
      .filter(({ route }) => !route.revealsSecret && !route.sessionOnly)
      .filter(
        ({ route }) =>
          secretFields(z.toJSONSchema(route.response, { io: 'output', unrepresentable: 'any' })).length > 0,
      )
      .map(({ id }) => id);
    expect(answeringSecrets.filter((id) => !OPEN_TO_READ_KEYS.has(id))).toEqual([]);
    // And no exemption outlives its route's secret.
    expect([...OPEN_TO_READ_KEYS].filter((id) => !answeringSecrets.includes(id))).toEqual([]);
    const marked = allRoutes()
      .filter(({ route }) => route.revealsSecret)
      .map(({ id }) => id);
    expect(marked).toEqual(
      expect.arrayContaining([
        'webhookRoutes.secret',
        'webhookRoutes.rotateSecret',
        'streamRoutes.createPreview',
        'nodeRoutes.create',
        'nodeRoutes.reissueToken',
      ]),
    );
  });

  it('a read key gets 403 on each route that reveals a secret; a write key and a session get the secret', async () => {
    const stream = await t.createInput({ caption: 'secret-test' });
    const readKey = (await createKey(t.roles.admin.token, { scope: 'read' })).key;
    const ownerRead = (await createKey(t.roles.owner.token, { scope: 'read' })).key;
    const writeKey = (await createKey(t.roles.admin.token)).key;
    const ownerWrite = (await createKey(t.roles.owner.token)).key;
    const node = await t.createNode(t.roles.admin);
    const cases: Array<{ method: 'GET' | 'POST'; url: string; payload?: object; owner: boolean; field: string }> = [
      { method: 'GET', url: `${API_BASE}/webhooks/secret`, owner: true, field: 'secret' },
      { method: 'POST', url: `${API_BASE}/webhooks/secret/rotate`, payload: {}, owner: true, field: 'secret' },
      { method: 'POST', url: `${API_BASE}/inputs/${stream.id}/preview`, owner: true, field: 'token' },
      {
        method: 'POST',
        url: `${API_BASE}/nodes`,
        payload: { name: 'n-secret', connection: { protocol: 'HTTP', hostname: 'n.example.com', port: 4242 } },
        owner: false,
        field: 'token',
      },
      { method: 'POST', url: `${API_BASE}/nodes/${node.id}/token`, owner: false, field: 'token' },
    ];
    const before = await databaseState(t.database.db);
    for (const { method, url, payload, owner } of cases) {
      for (const key of owner ? [readKey, ownerRead] : [readKey]) {
        const refused = await withKey(key, method, url, payload);
        expect(refused.statusCode, `${method} ${url}`).toBe(403);
        expect(refused.json()).toMatchObject({ code: 'READ_ONLY_KEY', message: READ_KEY_SECRET_REFUSAL });
        expect(refused.body).not.toMatch(/whsec_/);
      }
    }
    expect(await databaseState(t.database.db)).toEqual(before);
    for (const { method, url, payload, owner, field } of cases) {
      for (const token of owner ? [writeKey, ownerWrite, t.roles.owner.token] : [writeKey, t.roles.admin.token]) {
        const answered = await withKey(token, method, url, payload);
        expect(answered.statusCode, `${method} ${url}: ${answered.body}`).toBeLessThan(300);
        expect(typeof answered.json()[field], `${method} ${url}`).toBe('string');
      }
    }
  });
});

describe('revocation', () => {
  it('a revoked key is refused on the next request', async () => {
    const created = await createKey(t.roles.owner.token);
    expect((await withKey(created.key, 'GET', `${API_BASE}/accounts/whoami`)).statusCode).toBe(200);
    expect((await call('USER owner', 'DELETE', `${API_BASE}/api-keys/${created.id}`)).statusCode).toBe(204);
    const after = await withKey(created.key, 'GET', `${API_BASE}/accounts/whoami`);
    expect(after.statusCode).toBe(401);
    expect((await call('USER owner', 'GET', `${API_BASE}/api-keys`)).json()).toEqual([]);
  });

  it('a key may revoke itself, and concurrent revocations answer one 204', async () => {
    const created = await createKey(t.roles.owner.token);
    await raceForOne(4, () => withKey(created.key, 'DELETE', `${API_BASE}/api-keys/${created.id}`), {
      winner: 204,
      losers: [401, 404],
    });
    expect((await withKey(created.key, 'GET', `${API_BASE}/accounts/whoami`)).statusCode).toBe(401);
  });

  it("deleting the key's account refuses it on the next request", async () => {
    const created = await createKey(t.roles.owner.token);
    expect((await withKey(created.key, 'GET', `${API_BASE}/accounts/whoami`)).statusCode).toBe(200);
    expect((await call('ADMIN', 'DELETE', `${API_BASE}/accounts/${t.roles.owner.id}`)).statusCode).toBe(204);
    expect((await withKey(created.key, 'GET', `${API_BASE}/accounts/whoami`)).statusCode).toBe(401);
  });

  const setRole = (id: string, role: 'ADMIN' | 'USER') => call('ADMIN', 'PUT', `${API_BASE}/accounts/${id}`, { role });

  it("demoting the key's account revokes its keys and sessions for good: promoting it again brings none back", async () => {
    const second = await t.createAccount('ADMIN', 'second-admin');
    const readKey = await createKey(second.token, { scope: 'read' });
    const writeKey = await createKey(second.token);
    expect((await withKey(readKey.key, 'GET', `${API_BASE}/accounts`)).statusCode).toBe(200);
    expect((await setRole(second.id, 'USER')).statusCode).toBe(200);
    for (const token of [readKey.key, writeKey.key, second.token]) {
      expect((await withKey(token, 'GET', `${API_BASE}/accounts/whoami`)).statusCode).toBe(401);
    }
    expect((await setRole(second.id, 'ADMIN')).statusCode).toBe(200);
    for (const token of [readKey.key, writeKey.key, second.token]) {
      expect((await withKey(token, 'GET', `${API_BASE}/accounts`)).statusCode).toBe(401);
      expect((await withKey(token, 'GET', `${API_BASE}/accounts/whoami`)).statusCode).toBe(401);
    }
    // The owner lists no key of the old role; a new session makes new ones.
    const again = await t.login(second.username, second.password);
    expect((await t.request({ method: 'GET', url: `${API_BASE}/api-keys`, token: again })).json()).toEqual([]);
    const fresh = await createKey(again, { scope: 'read' });
    expect((await withKey(fresh.key, 'GET', `${API_BASE}/accounts`)).statusCode).toBe(200);
  });

  it("a USER's promotion revokes its keys too; an unrelated change leaves other accounts' keys and sessions", async () => {
    const userKey = await createKey(t.roles.owner.token);
    const otherKey = await createKey(t.roles.other.token);
    expect(
      (await call('ADMIN', 'PUT', `${API_BASE}/accounts/${t.roles.owner.id}`, { email: 'a@example.com' })).statusCode,
    ).toBe(200);
    expect((await withKey(userKey.key, 'GET', `${API_BASE}/accounts/whoami`)).statusCode).toBe(200);
    expect((await setRole(t.roles.owner.id, 'USER')).statusCode).toBe(200);
    expect((await withKey(userKey.key, 'GET', `${API_BASE}/accounts/whoami`)).statusCode).toBe(200);
    expect((await setRole(t.roles.owner.id, 'ADMIN')).statusCode).toBe(200);
    expect((await withKey(userKey.key, 'GET', `${API_BASE}/accounts`)).statusCode).toBe(401);
    expect((await withKey(otherKey.key, 'GET', `${API_BASE}/accounts/whoami`)).statusCode).toBe(200);
    expect((await call('USER other', 'GET', `${API_BASE}/accounts/whoami`)).statusCode).toBe(200);
  });

  it('a key made while its account is demoted is refused, or revoked by the demotion (never an admin key after)', async () => {
    for (let round = 0; round < 4; round++) {
      const admin = await t.createAccount('ADMIN');
      const [made, demoted] = await Promise.all([
        t.request({
          method: 'POST',
          url: `${API_BASE}/api-keys`,
          token: admin.token,
          payload: { name: 'ci', scope: 'read' },
        }),
        setRole(admin.id, 'USER'),
      ]);
      expect(demoted.statusCode).toBe(200);
      expect([201, 401]).toContain(made.statusCode);
      expect((await setRole(admin.id, 'ADMIN')).statusCode).toBe(200);
      if (made.statusCode === 201) {
        expect((await withKey(made.json().key, 'GET', `${API_BASE}/accounts`)).statusCode).toBe(401);
      }
    }
  });

  it('an expired key is refused, and still listed with its expiry', async () => {
    const expiresAt = new Date(Date.now() + 60_000).toISOString();
    const created = await createKey(t.roles.owner.token, { expiresAt });
    expect((await withKey(created.key, 'GET', `${API_BASE}/accounts/whoami`)).statusCode).toBe(200);
    clock.advance(61_000);
    expect((await withKey(created.key, 'GET', `${API_BASE}/accounts/whoami`)).statusCode).toBe(401);
    expect((await call('USER owner', 'GET', `${API_BASE}/api-keys`)).json()).toMatchObject([{ expiresAt }]);
  });
});

describe('rate limit per key', () => {
  it('answers RateLimit headers, then 429 with Retry-After past the limit; another key has its own', async () => {
    const app = await startTestApp({ clock, keyRateLimit: 3 });
    try {
      const account = await app.createAccount('USER', 'carol');
      const first = await createKey(account.token, {}, app);
      const second = await createKey(account.token, {}, app);
      const whoami = (key: string) => app.request({ method: 'GET', url: `${API_BASE}/accounts/whoami`, token: key });
      const answers = [await whoami(first.key), await whoami(first.key), await whoami(first.key)];
      expect(answers.map((answer) => answer.headers['ratelimit-remaining'])).toEqual(['2', '1', '0']);
      expect(answers[0]?.headers['ratelimit-limit']).toBe('3');
      expect(Number(answers[0]?.headers['ratelimit-reset'])).toBeGreaterThan(0);
      const refused = await whoami(first.key);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['ratelimit-remaining']).toBe('0');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await whoami(second.key)).statusCode).toBe(200);
      clock.advance(60_000);
      expect((await whoami(first.key)).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('OpenAPI', () => {
  it('documents the key as a security scheme of the routes it may call', async () => {
    const document = (await t.request({ method: 'GET', url: `${API_BASE}/openapi.json` })).json();
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.paths['/api/v1/inputs'].get.security).toEqual([{ bearer: [] }, { apiKey: [] }]);
    expect(document.paths['/api/v1/api-keys'].post.security).toEqual([{ bearer: [] }]);
    // A route that reveals a secret says a read key is refused there.
    expect(document.paths['/api/v1/webhooks/secret'].get.description).toContain('refused to read-scoped API keys');
    expect(document.paths['/api/v1/inputs'].get.description).toBeUndefined();
  });
});
