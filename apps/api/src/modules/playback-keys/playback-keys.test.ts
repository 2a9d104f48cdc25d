import { Writable } from 'node:stream';
import { API_BASE, PLAYBACK_KEYS_MAX, type PlaybackKeyCreated } from '@streamcloud/contract';
import { importPKCS8, SignJWT } from 'jose';
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { raceForOne } from '../../../test/concurrency.js';
import { databaseState } from '../../../test/database-state.js';
import {
  expectValidationError,
  type Roles,
  roleMatrixTests,
  signedIn,
  startTestApp,
  TestClock,
  useTestApp,
} from '../../../test/helpers.js';

const clock = new TestClock();
const t = useTestApp({ clock }, { roles: true });
const call = (...args: Parameters<Roles['call']>) => t.roles.call(...args);
const KEYS = `${API_BASE}/playback-keys`;
const INSPECT = `${API_BASE}/playback-tokens/inspect`;
const REVOCATIONS = `${API_BASE}/playback-tokens/revocations`;

async function createKey(token: string, body: object = {}): Promise<PlaybackKeyCreated> {
  const response = await t.request({ method: 'POST', url: KEYS, token, payload: { name: 'shop', ...body } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as PlaybackKeyCreated;
}

/** Signs a token as the customer's backend does, with what the key's creation showed. */
async function mint(key: PlaybackKeyCreated, claims: Record<string, unknown>): Promise<string> {
  const signingKey =
    key.algorithm === 'HS256'
      ? Buffer.from(key.secret ?? '', 'base64url')
      : await importPKCS8(key.privateKeyPem ?? '', key.algorithm === 'ES256' ? 'ES256' : 'EdDSA');
  const seconds = Math.floor(clock.now().getTime() / 1000);
  return new SignJWT({ exp: seconds + 600, jti: 'ticket-1', ...claims })
    .setProtectedHeader({ alg: key.privateJwk?.alg ?? 'HS256', kid: key.kid })
    .sign(signingKey);
}

let outputId: string;
let streamId: string;
beforeEach(async () => {
  const stream = await t.createInput();
  streamId = stream.id;
  outputId = (await t.createOutput({ streamId, format: 'HLS', access: 'Signed' })).id;
});

describe('role matrix', () => {
  roleMatrixTests<{ id: string; token: string }>(
    [
      { name: 'GET /playback-keys', call: () => ['GET', KEYS], expected: signedIn(200) },
      { name: 'POST /playback-keys', call: () => ['POST', KEYS, { name: 'shop' }], expected: signedIn(201) },
      {
        name: 'DELETE /playback-keys/{id}',
        call: (key) => ['DELETE', `${KEYS}/${key.id}`],
        expected: {
          anonymous: 401,
          'USER owner': 204,
          'USER other': 404,
          'ADMIN impersonating owner': 204,
          ADMIN: 204,
        },
      },
      { name: 'GET /playback-tokens/revocations', call: () => ['GET', REVOCATIONS], expected: signedIn(200) },
      {
        name: 'POST /playback-tokens/revocations',
        call: () => ['POST', REVOCATIONS, { jti: 'ticket-9' }],
        expected: signedIn(201),
      },
      {
        name: 'POST /playback-tokens/inspect',
        call: (key) => ['POST', INSPECT, { token: key.token, outputId }],
        expected: {
          anonymous: 401,
          'USER owner': 200,
          'USER other': 404,
          'ADMIN impersonating owner': 200,
          ADMIN: 200,
        },
      },
    ],
    {
      roles: () => t.roles,
      subject: async () => {
        const key = await createKey(t.roles.owner.token);
        return { id: key.id, token: await mint(key, { sub: outputId }) };
      },
    },
  );
});

describe.each(['ES256', 'Ed25519', 'HS256'] as const)('a %s key', (algorithm) => {
  it('is shown once; the list, the database and the logs never hold its private key or secret', async () => {
    const key = await createKey(t.roles.owner.token, { name: ' shop ', algorithm });
    expect(key).toMatchObject({ name: 'shop', algorithm, kid: key.id, accountId: t.roles.owner.id, revokedAt: null });
    const shown = algorithm === 'HS256' ? [key.secret ?? ''] : [key.privateKeyPem ?? '', key.privateJwk?.d ?? ''];
    expect(shown.every((part) => part.length >= 32)).toBe(true);
    if (algorithm === 'HS256') expect(key).toMatchObject({ publicJwk: null, privateKeyPem: null, privateJwk: null });
    else expect(key.publicJwk).toMatchObject({ kid: key.id, alg: key.privateJwk?.alg, x: key.privateJwk?.x });
    const list = await call('USER owner', 'GET', KEYS);
    const { privateKeyPem: _pem, privateJwk: _jwk, secret: _secret, ...listed } = key;
    expect(list.json()).toEqual([listed]);
    const stored =
      JSON.stringify(await databaseState(t.database.db)) +
      JSON.stringify((await sql`select * from playback_keys`.execute(t.database.db)).rows);
    for (const part of [...shown, ...shown.map((text) => Buffer.from(text, 'base64url').toString('base64'))]) {
      expect(stored).not.toContain(part);
      expect(list.body).not.toContain(part);
    }
  });

  it('signs tokens the inspect route accepts for the output and its stream, and refuses after revocation', async () => {
    const key = await createKey(t.roles.owner.token, { algorithm });
    for (const sub of [outputId, streamId]) {
      const answer = await call('USER owner', 'POST', INSPECT, { token: await mint(key, { sub }), outputId });
      expect(answer.json()).toMatchObject({
        accepted: true,
        reason: null,
        header: { kid: key.kid },
        claims: { sub, jti: 'ticket-1' },
        output: { id: outputId, streamId, access: 'Signed' },
      });
    }
    const token = await mint(key, { sub: outputId });
    await call('USER owner', 'DELETE', `${KEYS}/${key.id}`);
    expect((await call('USER owner', 'POST', INSPECT, { token, outputId })).json()).toMatchObject({
      accepted: false,
      reason: 'key_revoked',
      message: "The token's signing key has been revoked",
    });
  });
});

describe('POST /playback-tokens/inspect', () => {
  it('says why the output refuses a token, with the test viewer given', async () => {
    const key = await createKey(t.roles.owner.token);
    const other = await createKey(t.roles.other.token);
    const otherOutput = (await t.createOutput({ streamId, format: 'WebRTC', access: 'Signed' })).id;
    const restricted = await mint(key, {
      sub: outputId,
      ips: ['198.51.100.0/24', '2001:db8::/32'],
      countries: ['FR'],
      origins: ['https://shop.example'],
      maxSessions: 2,
      maxSessionSeconds: 3600,
    });
    const viewer = { address: '2001:db8::7', country: 'fr', origin: 'https://shop.example' };
    const cases: [object, string | null, string][] = [
      [{ token: restricted, ...viewer }, null, 'This output would play the token'],
      [{ token: restricted, ...viewer, country: 'US' }, 'wrong_country', 'Not allowed from your country'],
      [
        { token: restricted, ...viewer, address: '203.0.113.1' },
        'wrong_address',
        'Not allowed from your network address',
      ],
      [{ token: restricted, ...viewer, origin: 'https://evil.example' }, 'wrong_origin', 'Not allowed on this website'],
      [{ token: restricted, ...viewer, activeSessions: 2 }, 'too_many_sessions', 'Too many sessions for this token'],
      [
        { token: restricted, ...viewer, at: new Date(clock.now().getTime() + 601_000).toISOString() },
        'expired',
        'The token expired',
      ],
      [{ token: restricted, ...viewer, outputId: otherOutput }, 'wrong_output', 'The token is not for this video'],
      [{ token: await mint(key, { sub: outputId, nbf: 2e9 }) }, 'not_yet_valid', 'The token is not valid yet'],
      [
        { token: await mint(other, { sub: outputId }) },
        'unknown_key',
        'The token was signed with a key this account does not have',
      ],
      [{ token: 'pasted.nonsense' }, 'malformed', 'The token is not a valid playback token'],
    ];
    for (const [body, reason, message] of cases) {
      const answer = await call('USER owner', 'POST', INSPECT, { outputId, ...body });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json(), JSON.stringify(body)).toMatchObject({ accepted: reason === null, reason, message });
    }
    const at = clock.now().toISOString();
    const accepted = await call('USER owner', 'POST', INSPECT, { outputId, token: restricted, ...viewer, at });
    expect(accepted.json().sessionEndsAt).toBe(new Date(Date.parse(at) + 3600_000).toISOString());
    expect((await call('USER owner', 'POST', INSPECT, { token: 'x', outputId: other.id })).statusCode).toBe(404);
  });

  it("answers as the output's node would by its policy: a Public output plays anyone, a Private one no playback token", async () => {
    const key = await createKey(t.roles.owner.token);
    const token = await mint(key, { sub: outputId });
    const inspect = async () => (await call('USER owner', 'POST', INSPECT, { token, outputId })).json();
    expect(await inspect()).toMatchObject({ accepted: true, output: { access: 'Signed' }, detail: null });
    await call('USER owner', 'PUT', `/api/v1/outputs/${outputId}`, { access: 'Private' });
    expect(await inspect()).toMatchObject({
      accepted: false,
      reason: 'output_not_signed',
      message: 'wrong playback token',
      detail: 'The output is Private: it plays its static viewer token only; make it Signed to play playback tokens',
      output: { access: 'Private' },
    });
    await call('USER owner', 'PUT', `/api/v1/outputs/${outputId}`, { access: 'Public' });
    expect(await inspect()).toMatchObject({
      accepted: true,
      reason: null,
      detail: 'The output is Public: it plays without any token',
      output: { access: 'Public' },
    });
  });

  it('refuses bad input with 400 naming the field and the rule', async () => {
    const before = await databaseState(t.database.db, ['audit_log']);
    const bad: [object, string, string | undefined][] = [
      [{ token: ' ', outputId }, 'body.token', 'Token is required'],
      [{ token: 'x', outputId: 'nope' }, 'body.outputId', 'Must be a UUID'],
      [{ token: 'x', outputId, address: '300.1.1.1' }, 'body.address', 'Address must be an IPv4 or IPv6 address'],
      [{ token: 'x', outputId, country: 'FRA' }, 'body.country', 'Country must be a two-letter ISO code such as FR'],
      [{ token: 'x', outputId, origin: 'ftp://x' }, 'body.origin', undefined],
      [{ token: 'x', outputId, activeSessions: -1 }, 'body.activeSessions', 'Active sessions must be 0 or more'],
      [{ token: 'x'.repeat(8193), outputId }, 'body.token', 'Token must be at most 8192 characters'],
    ];
    for (const [body, path, message] of bad)
      expectValidationError(await call('USER owner', 'POST', INSPECT, body), path, message);
    expect(await databaseState(t.database.db, ['audit_log'])).toEqual(before);
  });
});

describe('POST /playback-keys', () => {
  it('refuses a bad name or algorithm with 400 naming the field, and makes nothing', async () => {
    const before = await databaseState(t.database.db, ['audit_log']);
    expectValidationError(await call('USER owner', 'POST', KEYS, { name: ' ' }), 'body.name', 'Name is required');
    expectValidationError(
      await call('USER owner', 'POST', KEYS, { name: 'x'.repeat(101) }),
      'body.name',
      'Name must be at most 100 characters',
    );
    expectValidationError(
      await call('USER owner', 'POST', KEYS, { name: 'x', algorithm: 'none' }),
      'body.algorithm',
      'Algorithm must be ES256, Ed25519 or HS256',
    );
    expectValidationError(await call('USER owner', 'POST', KEYS, { name: 'x', secret: 'mine' }), 'body');
    expect(await databaseState(t.database.db, ['audit_log'])).toEqual(before);
  });

  it(`holds an account to ${PLAYBACK_KEYS_MAX} active keys, even when created at once`, async () => {
    await raceForOne(
      PLAYBACK_KEYS_MAX + 1,
      (index) => call('USER owner', 'POST', KEYS, { name: `key ${index}`, algorithm: 'HS256' }),
      { winner: 409, losers: [201] },
    );
    const refused = await call('USER owner', 'POST', KEYS, { name: 'one more' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('An account has at most 20 active playback signing keys: revoke one first');
    // Another account has its own allowance; a revoked key frees a place.
    await createKey(t.roles.other.token);
    const [first] = (await call('USER owner', 'GET', KEYS)).json() as { id: string }[];
    await call('USER owner', 'DELETE', `${KEYS}/${first?.id}`);
    await createKey(t.roles.owner.token);
  });

  it('is refused to a read API key; a write key creates one', async () => {
    const apiKey = async (scope: string) =>
      (await call('USER owner', 'POST', `${API_BASE}/api-keys`, { name: scope, scope })).json().key as string;
    const read = await apiKey('read');
    expect((await t.request({ method: 'GET', url: KEYS, token: read })).statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: KEYS, token: read, payload: { name: 'x' } })).statusCode).toBe(403);
    const write = await apiKey('write');
    expect((await t.request({ method: 'POST', url: KEYS, token: write, payload: { name: 'x' } })).statusCode).toBe(201);
  });
});

describe('GET /playback-keys', () => {
  it("lists a USER's own keys, active first; an ADMIN every account's or one's", async () => {
    const revoked = await createKey(t.roles.owner.token, { name: 'old' });
    await call('USER owner', 'DELETE', `${KEYS}/${revoked.id}`);
    const active = await createKey(t.roles.owner.token, { name: 'new' });
    const others = await createKey(t.roles.other.token);
    const names = (caller: Parameters<Roles['call']>[0], url: string) =>
      call(caller, 'GET', url).then((response) => (response.json() as { id: string }[]).map((key) => key.id));
    expect(await names('USER owner', KEYS)).toEqual([active.id, revoked.id]);
    expect(await names('USER other', KEYS)).toEqual([others.id]);
    expect((await call('USER other', 'GET', `${KEYS}?account=${t.roles.owner.id}`)).statusCode).toBe(404);
    expect(await names('ADMIN', `${KEYS}?account=${t.roles.owner.id}`)).toEqual([active.id, revoked.id]);
    expect((await names('ADMIN', KEYS)).sort()).toEqual([active.id, revoked.id, others.id].sort());
  });
});

describe('DELETE /playback-keys/{id}', () => {
  it('is won by one of concurrent revocations and audited once, as creation is', async () => {
    const key = await createKey(t.roles.owner.token);
    await raceForOne(4, () => call('USER owner', 'DELETE', `${KEYS}/${key.id}`), { winner: 204, losers: [409] });
    const entries = await t.auditLog(2);
    expect(entries.map((entry) => [entry.action, entry.actor_id, entry.target_type, entry.target_id])).toEqual([
      ['playback-key.revoke', t.roles.owner.id, 'playback-key', key.id],
      ['playback-key.create', t.roles.owner.id, 'playback-key', key.id],
    ]);
    expect((await call('USER owner', 'GET', KEYS)).json()).toMatchObject([
      { id: key.id, revokedAt: expect.any(String) },
    ]);
  });
});

describe('POST /playback-tokens/revocations', () => {
  it("refuses the account's tokens carrying the jti, once, audited; another account's are not touched", async () => {
    const key = await createKey(t.roles.owner.token);
    const token = await mint(key, { sub: outputId, jti: 'ticket-7' });
    await raceForOne(3, () => call('USER owner', 'POST', REVOCATIONS, { jti: 'ticket-7' }), {
      winner: 201,
      losers: [409],
    });
    expect((await call('USER owner', 'POST', INSPECT, { token, outputId })).json()).toMatchObject({
      accepted: false,
      reason: 'token_revoked',
      message: 'The token has been revoked',
    });
    expect(
      (await call('USER owner', 'POST', INSPECT, { token: await mint(key, { sub: outputId }), outputId })).json(),
    ).toMatchObject({ accepted: true });
    expect((await call('USER owner', 'GET', REVOCATIONS)).json()).toEqual([
      { jti: 'ticket-7', accountId: t.roles.owner.id, revokedAt: expect.any(String) },
    ]);
    expect((await call('USER other', 'GET', REVOCATIONS)).json()).toEqual([]);
    expect((await call('USER other', 'GET', `${REVOCATIONS}?account=${t.roles.owner.id}`)).statusCode).toBe(404);
    expect((await call('ADMIN', 'GET', REVOCATIONS)).json()).toHaveLength(1);
    const [entry] = await t.auditLog(1);
    expect([entry?.action, entry?.actor_id, entry?.target_type, entry?.target_id]).toEqual([
      'playback-token.revoke',
      t.roles.owner.id,
      'playback-token',
      'ticket-7',
    ]);
  });

  it('refuses a missing or long jti with 400 naming the field, and changes nothing', async () => {
    const before = await databaseState(t.database.db, ['audit_log']);
    expectValidationError(await call('USER owner', 'POST', REVOCATIONS, {}), 'body.jti', 'Token id (jti) is required');
    expectValidationError(
      await call('USER owner', 'POST', REVOCATIONS, { jti: 'x'.repeat(201) }),
      'body.jti',
      'Token id (jti) must be at most 200 characters',
    );
    expect(await databaseState(t.database.db, ['audit_log'])).toEqual(before);
  });
});

describe('logs', () => {
  it('never carry a private key, a secret or a pasted token, even at trace level', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = await startTestApp({ logger: { level: 'trace', stream } });
    try {
      const user = await app.createAccount('USER');
      const request = (url: string, payload: object) =>
        app.request({ method: 'POST', url, token: user.token, payload });
      const hmac = (await request(KEYS, { name: 'h', algorithm: 'HS256' })).json() as PlaybackKeyCreated;
      const ec = (await request(KEYS, { name: 'e', algorithm: 'ES256' })).json() as PlaybackKeyCreated;
      const token = await mint(ec, { sub: hmac.id });
      await request(INSPECT, { token, outputId: hmac.id });
      expect(lines.length).toBeGreaterThan(0);
      for (const secret of [hmac.secret ?? '', ec.privateJwk?.d ?? '', token])
        expect(lines.join('')).not.toContain(secret);
    } finally {
      await app.close();
    }
  });
});
