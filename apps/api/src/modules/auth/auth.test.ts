import { ANTI_FORGERY_COOKIE, ANTI_FORGERY_HEADER } from '@streamcloud/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { concurrently } from '../../../test/concurrency.js';
import { TEST_PASSWORD, TEST_SECRET, TestClock, useTestApp } from '../../../test/helpers.js';
import { HashingGate } from '../../lib/hashing-gate.js';
import { deriveKey } from '../../lib/secrets.js';
import { TokenSigner } from '../../lib/tokens.js';

const clock = new TestClock(() => Date.parse('2026-11-26T10:00:00Z'));
/** Room for every concurrent sign-in of the throttle tests; the busy test fills it on purpose. */
const HASHING_LIMITS = { concurrency: 2, queue: 64, trustedQueue: 64 };
const hashing = new HashingGate(HASHING_LIMITS);
const t = useTestApp({ clock, hashing });

const login = (payload: unknown, remoteAddress = '127.0.0.1') =>
  t.request({ method: 'POST', url: '/api/v1/login', payload: payload as object, remoteAddress });

describe('POST /api/v1/login', () => {
  it('answers a token for the right password, with no-store', async () => {
    const user = await t.createAccount('USER', 'alice');
    const response = await login({ username: 'alice', password: TEST_PASSWORD });
    expect(response.statusCode).toBe(200);
    expect(response.json().token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(response.headers['cache-control']).toBe('no-store');
    const whoami = await t.request({ method: 'GET', url: '/api/v1/accounts/whoami', token: response.json().token });
    expect(whoami.json()).toMatchObject({ id: user.id, username: 'alice', role: 'USER', impersonatedBy: null });
  });

  it('trims the username and ignores its case', async () => {
    await t.createAccount('USER', 'Alice');
    expect((await login({ username: '  alice ', password: TEST_PASSWORD })).statusCode).toBe(200);
  });

  it('answers the same 401 for a wrong password and for an unknown user', async () => {
    await t.createAccount('USER', 'alice');
    const wrong = await login({ username: 'alice', password: 'not-the-password' });
    const unknown = await login({ username: 'nobody', password: 'not-the-password' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().message).toBe('Invalid username or password');
  });

  it.each([
    [{ password: 'x' }, 'body.username', 'Username is required'],
    [{ username: 'alice' }, 'body.password', 'Password is required'],
    [{ username: '   ', password: 'x' }, 'body.username', 'Username is required'],
    [{ username: 'alice', password: '' }, 'body.password', 'Password is required'],
  ])('answers 400 naming the missing field for %j', async (payload, path, message) => {
    const response = await login(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toContainEqual({ path, message });
    expect(response.json().message).toContain(path);
  });

  it('rejects unknown fields instead of dropping them', async () => {
    await t.createAccount('USER', 'alice');
    const response = await login({ username: 'alice', password: TEST_PASSWORD, admin: true });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toContainEqual({ path: 'body', message: 'Unrecognized key: "admin"' });
  });

  it('answers 400 for malformed JSON and 413 for an oversized body, never 500', async () => {
    const malformed = await t.request({
      method: 'POST',
      url: '/api/v1/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": "a",',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({
      message: 'Request body is not valid JSON',
      code: 'FST_ERR_CTP_INVALID_JSON_BODY',
    });
    const oversized = await t.request({
      method: 'POST',
      url: '/api/v1/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'a'.repeat(2 * 1024 * 1024), password: 'x' }),
    });
    expect(oversized.statusCode).toBe(413);
    expect(oversized.json().message).toBe('Request body is too large');
    const longName = await login({ username: 'a'.repeat(10_000), password: 'x' });
    expect(longName.statusCode).toBe(400);
    const wrongType = await login({ username: 42, password: ['x'] });
    expect(wrongType.statusCode).toBe(400);
    const notJson = await t.request({
      method: 'POST',
      url: '/api/v1/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'hi',
    });
    expect(notJson.statusCode).toBe(415);
  });

  it('answers 429 with Retry-After after five failures for one username, even from many addresses', async () => {
    await t.createAccount('USER', 'alice');
    for (let i = 0; i < 5; i++) {
      expect((await login({ username: 'alice', password: 'wrong-one' }, `10.0.0.${i + 1}`)).statusCode).toBe(401);
    }
    const blocked = await login({ username: 'alice', password: TEST_PASSWORD }, '10.0.0.99');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    // Other usernames are not affected.
    await t.createAccount('USER', 'bob');
    expect((await login({ username: 'bob', password: TEST_PASSWORD }, '10.0.0.99')).statusCode).toBe(200);
    // After the window the username may try again.
    clock.advance(15 * 60 * 1000 + 1000);
    expect((await login({ username: 'alice', password: TEST_PASSWORD }, '10.0.0.99')).statusCode).toBe(200);
  });

  it('answers 429 after twenty failures from one address, whatever the usernames', async () => {
    await t.createAccount('USER', 'alice');
    for (let i = 0; i < 20; i++) {
      expect((await login({ username: `guess-${i}`, password: 'wrong-one' }, '10.1.1.1')).statusCode).toBe(401);
    }
    const blocked = await login({ username: 'alice', password: TEST_PASSWORD }, '10.1.1.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    expect((await login({ username: 'alice', password: TEST_PASSWORD }, '10.1.1.2')).statusCode).toBe(200);
  });

  it('counts concurrent failures for one username before deciding: 40 at once, only 5 are tried', async () => {
    await t.createAccount('USER', 'alice');
    const responses = await concurrently(40, (index) =>
      login({ username: 'alice', password: 'wrong-one' }, `10.2.${Math.floor(index / 250)}.${(index % 250) + 1}`),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(35);
  });

  it('counts concurrent failures from one address before deciding: 55 usernames at once, only 20 are tried', async () => {
    const responses = await concurrently(55, (index) =>
      login({ username: `guess-${index}`, password: 'wrong-one' }, '10.3.3.3'),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(35);
  });

  it('does not lock the owner out from an address it signed in from before', async () => {
    await t.createAccount('USER', 'alice');
    expect((await login({ username: 'alice', password: TEST_PASSWORD }, '10.4.4.4')).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) {
      expect([401, 429]).toContain((await login({ username: 'alice', password: 'wrong' }, `10.5.5.${i}`)).statusCode);
    }
    expect((await login({ username: 'alice', password: TEST_PASSWORD }, '10.6.6.6')).statusCode).toBe(429);
    expect((await login({ username: 'alice', password: TEST_PASSWORD }, '10.4.4.4')).statusCode).toBe(200);
    // From the trusted address, failures are limited per username and address.
    for (let i = 0; i < 5; i++) {
      expect((await login({ username: 'alice', password: 'wrong' }, '10.4.4.4')).statusCode).toBe(401);
    }
    expect((await login({ username: 'alice', password: TEST_PASSWORD }, '10.4.4.4')).statusCode).toBe(429);
  });

  it('answers 503 when the hashing queue is full, counting no failure, while a trusted sign-in still gets through', async () => {
    await t.createAccount('USER', 'alice');
    expect((await login({ username: 'alice', password: TEST_PASSWORD }, '10.7.7.7')).statusCode).toBe(200);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { concurrency, queue } = HASHING_LIMITS;
    const occupying = Array.from({ length: concurrency + queue }, () => hashing.run(() => held));
    const busy = await login({ username: 'alice', password: 'wrong-one' }, '10.8.8.8');
    expect(busy.statusCode, busy.body).toBe(503);
    expect(busy.headers['retry-after']).toBe('1');
    expect(busy.json()).toEqual({ message: 'Too many sign-ins at once; try again in a moment', code: 'BUSY' });
    const failures = await sql<{ n: number }>`select count(*)::int as n from login_failures`.execute(t.database.db);
    expect(failures.rows[0]?.n).toBe(0);
    const trusted = login({ username: 'alice', password: TEST_PASSWORD }, '10.7.7.7');
    release();
    await Promise.all(occupying);
    expect((await trusted).statusCode).toBe(200);
  });

  it('stores passwords as salted scrypt hashes', async () => {
    await t.createAccount('USER', 'alice');
    const row = await t.database.db.selectFrom('accounts').select('password_hash').executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$\d+\$8\$1\$/);
    expect(row.password_hash).not.toContain(TEST_PASSWORD);
  });
});

describe('tokens', () => {
  it('rejects a tampered, unsigned or foreign token', async () => {
    const user = await t.createAccount('USER');
    const [header, payload, signature] = user.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...claims, sub: '00000000-0000-4000-8000-000000000000' }),
    ).toString('base64url');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    for (const token of [`${header}.${forgedPayload}.${signature}`, none, 'garbage', `${user.token}x`]) {
      const response = await t.request({ method: 'GET', url: '/api/v1/accounts/whoami', token });
      expect(response.statusCode).toBe(401);
    }
  });

  it('expires with its session', async () => {
    const user = await t.createAccount('USER');
    clock.advance(12 * 60 * 60 * 1000 + 1000);
    expect((await t.request({ method: 'GET', url: '/api/v1/accounts/whoami', token: user.token })).statusCode).toBe(
      401,
    );
  });

  it('answers 401, not 500, for a validly signed token whose subject or session is not a UUID', async () => {
    const user = await t.createAccount('USER');
    const signer = new TokenSigner(deriveKey(TEST_SECRET, 'jwt'), clock);
    const { sessionId } = (await signer.verify(user.token)) as { sessionId: string };
    const expiresAt = new Date(clock.now().getTime() + 3600_000);
    for (const claims of [
      { accountId: 'not-a-uuid', sessionId },
      { accountId: user.id, sessionId: "x' or '1'='1" },
      { accountId: user.id, sessionId: '' },
    ]) {
      const token = await signer.sign(claims, expiresAt);
      const response = await t.request({ method: 'GET', url: '/api/v1/accounts/whoami', token });
      expect(response.statusCode, response.body).toBe(401);
    }
  });

  it('is never accepted from the URL', async () => {
    const user = await t.createAccount('USER');
    const response = await t.request({ method: 'GET', url: `/api/v1/accounts/whoami?token=${user.token}` });
    expect(response.statusCode).toBe(401);
  });
});

describe('POST /api/v1/logout', () => {
  it('revokes the token on the very next request', async () => {
    const user = await t.createAccount('USER');
    const other = await t.login(user.username, user.password);
    expect((await t.request({ method: 'POST', url: '/api/v1/logout', token: user.token })).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: '/api/v1/accounts/whoami', token: user.token })).statusCode).toBe(
      401,
    );
    expect((await t.request({ method: 'POST', url: '/api/v1/logout', token: user.token })).statusCode).toBe(401);
    // Another session of the same account lives on.
    expect((await t.request({ method: 'GET', url: '/api/v1/accounts/whoami', token: other })).statusCode).toBe(200);
  });

  it('answers 401 without a token', async () => {
    expect((await t.request({ method: 'POST', url: '/api/v1/logout' })).statusCode).toBe(401);
  });

  it("while impersonating, ends both the impersonation and the admin's session", async () => {
    const admin = await t.createAccount('ADMIN');
    const user = await t.createAccount('USER');
    const token = await t.impersonate(admin, user);
    expect((await t.request({ method: 'POST', url: '/api/v1/logout', token })).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: '/api/v1/accounts/whoami', token })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/v1/accounts/whoami', token: admin.token })).statusCode).toBe(
      401,
    );
  });
});

describe('impersonation', () => {
  it('acts as the target, records the admin, and ends with POST /impersonation/stop', async () => {
    const admin = await t.createAccount('ADMIN', 'root');
    const user = await t.createAccount('USER', 'carol');
    const token = await t.impersonate(admin, user);
    const whoami = await t.request({ method: 'GET', url: '/api/v1/accounts/whoami', token });
    expect(whoami.json()).toMatchObject({
      id: user.id,
      role: 'USER',
      impersonatedBy: { id: admin.id, username: 'root' },
    });
    // Acting as a USER: admin-only endpoints are closed.
    expect((await t.request({ method: 'GET', url: '/api/v1/accounts', token })).statusCode).toBe(403);

    expect((await t.request({ method: 'POST', url: '/api/v1/impersonation/stop', token })).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: '/api/v1/accounts/whoami', token })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/v1/accounts/whoami', token: admin.token })).json().id).toBe(
      admin.id,
    );

    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor_id', 'target_id', 'at'])
      .where('action', 'like', 'impersonation.%')
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'impersonation.start', actor_id: admin.id, target_id: user.id, at: expect.any(Date) },
      { action: 'impersonation.stop', actor_id: admin.id, target_id: user.id, at: expect.any(Date) },
    ]);
  });

  it('expires within an hour', async () => {
    const admin = await t.createAccount('ADMIN');
    const user = await t.createAccount('USER');
    const token = await t.impersonate(admin, user);
    clock.advance(60 * 60 * 1000 + 1000);
    expect((await t.request({ method: 'GET', url: '/api/v1/accounts/whoami', token })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/v1/accounts/whoami', token: admin.token })).statusCode).toBe(
      200,
    );
  });

  it('refuses nesting, oneself, USER callers and unknown accounts', async () => {
    const admin = await t.createAccount('ADMIN');
    const otherAdmin = await t.createAccount('ADMIN');
    const user = await t.createAccount('USER');
    const token = await t.impersonate(admin, otherAdmin);
    const nested = await t.request({ method: 'GET', url: `/api/v1/accounts/${user.id}/impersonate`, token });
    expect(nested.statusCode).toBe(409);
    expect(nested.json().message).toBe(
      'Already impersonating. Stop current impersonation before impersonating another user.',
    );
    const self = await t.request({
      method: 'GET',
      url: `/api/v1/accounts/${admin.id}/impersonate`,
      token: admin.token,
    });
    expect(self.statusCode).toBe(409);
    const byUser = await t.request({
      method: 'GET',
      url: `/api/v1/accounts/${admin.id}/impersonate`,
      token: user.token,
    });
    expect(byUser.statusCode).toBe(403);
    const unknown = await t.request({
      method: 'GET',
      url: '/api/v1/accounts/00000000-0000-4000-8000-000000000000/impersonate',
      token: admin.token,
    });
    expect(unknown.statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/v1/accounts/${user.id}/impersonate` })).statusCode).toBe(401);
  });

  it('stop answers 409 when not impersonating and 401 anonymously', async () => {
    const admin = await t.createAccount('ADMIN');
    expect(
      (await t.request({ method: 'POST', url: '/api/v1/impersonation/stop', token: admin.token })).statusCode,
    ).toBe(409);
    expect((await t.request({ method: 'POST', url: '/api/v1/impersonation/stop' })).statusCode).toBe(401);
  });

  it('ends when the admin logs out or is demoted', async () => {
    const admin = await t.createAccount('ADMIN');
    const boss = await t.createAccount('ADMIN');
    const user = await t.createAccount('USER');
    const token = await t.impersonate(admin, user);
    const demote = await t.request({
      method: 'PUT',
      url: `/api/v1/accounts/${admin.id}`,
      token: boss.token,
      payload: { role: 'USER' },
    });
    expect(demote.statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/v1/accounts/whoami', token })).statusCode).toBe(401);
    const promote = await t.request({
      method: 'PUT',
      url: `/api/v1/accounts/${admin.id}`,
      token: boss.token,
      payload: { role: 'ADMIN' },
    });
    expect(promote.statusCode).toBe(200);
    // Promoted again, neither the impersonation nor the admin session it was started from comes back.
    for (const old of [token, admin.token]) {
      expect((await t.request({ method: 'GET', url: '/api/v1/accounts/whoami', token: old })).statusCode).toBe(401);
    }
  });
});

describe('GET /api/v1/accounts/whoami', () => {
  const whoami = (token: string) => t.request({ method: 'GET', url: '/api/v1/accounts/whoami', token });

  it('answers from the session lookup alone: one query, then none while the session is cached', async () => {
    const user = await t.createAccount('USER', 'alice');
    let answer: Awaited<ReturnType<typeof whoami>> | undefined;
    expect(await t.queryCount(async () => (answer = await whoami(user.token)))).toBe(1);
    expect(await t.queryCount(async () => (answer = await whoami(user.token)))).toBe(0);
    const account = await t.request({ method: 'GET', url: `/api/v1/accounts/${user.id}`, token: user.token });
    expect(answer?.json()).toEqual({ ...account.json(), impersonatedBy: null, twoFactorEnrolmentRequired: false });
  });

  it("answers the account's email as changed, on the very next request", async () => {
    const admin = await t.createAccount('ADMIN');
    const user = await t.createAccount('USER');
    const changed = await t.request({
      method: 'PUT',
      url: `/api/v1/accounts/${user.id}`,
      token: admin.token,
      payload: { email: 'new@example.com' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await whoami(user.token)).json().email).toBe('new@example.com');
  });
});

describe('revocation on account changes', () => {
  it('revokes tokens of a demoted or deleted account on the next request', async () => {
    const boss = await t.createAccount('ADMIN');
    const admin = await t.createAccount('ADMIN');
    const user = await t.createAccount('USER');
    const demote = await t.request({
      method: 'PUT',
      url: `/api/v1/accounts/${admin.id}`,
      token: boss.token,
      payload: { role: 'USER' },
    });
    expect(demote.json().role).toBe('USER');
    expect((await t.request({ method: 'GET', url: '/api/v1/accounts', token: admin.token })).statusCode).toBe(401);
    const promote = await t.request({
      method: 'PUT',
      url: `/api/v1/accounts/${admin.id}`,
      token: boss.token,
      payload: { role: 'ADMIN' },
    });
    expect(promote.json().role).toBe('ADMIN');
    // The session was revoked, not only refused while the role differed: promoted again, still 401.
    expect((await t.request({ method: 'GET', url: '/api/v1/accounts', token: admin.token })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/v1/accounts', token: boss.token })).statusCode).toBe(200);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/v1/accounts/${user.id}`, token: boss.token })).statusCode,
    ).toBe(204);
    expect((await t.request({ method: 'GET', url: '/api/v1/accounts/whoami', token: user.token })).statusCode).toBe(
      401,
    );
  });
});

describe('anti-forgery', () => {
  const cookieOf = (setCookie: string | string[] | undefined) => {
    const header = ([] as string[]).concat(setCookie ?? []).find((c) => c.startsWith(`${ANTI_FORGERY_COOKIE}=`));
    return header?.split(';')[0]?.split('=')[1];
  };

  it('hands out a readable cookie on the first request', async () => {
    const response = await t.request({ method: 'GET', url: '/healthz' });
    const header = ([] as string[]).concat(response.headers['set-cookie'] ?? []).join(';');
    expect(header).toContain(`${ANTI_FORGERY_COOKIE}=`);
    expect(header).toContain('SameSite=Strict');
    expect(header).not.toContain('HttpOnly');
  });

  it('refuses a write that carries the cookie without the matching header', async () => {
    await t.createAccount('USER', 'alice');
    const token = cookieOf((await t.request({ method: 'GET', url: '/healthz' })).headers['set-cookie']);
    expect(token).toBeDefined();
    const payload = { username: 'alice', password: TEST_PASSWORD };
    const missing = await t.request({
      method: 'POST',
      url: '/api/v1/login',
      payload,
      cookies: { [ANTI_FORGERY_COOKIE]: token as string },
    });
    expect(missing.statusCode).toBe(403);
    expect(missing.json().message).toBe('Missing or invalid anti-forgery token');
    const wrong = await t.request({
      method: 'POST',
      url: '/api/v1/login',
      payload,
      cookies: { [ANTI_FORGERY_COOKIE]: token as string },
      headers: { [ANTI_FORGERY_HEADER]: 'something-else' },
    });
    expect(wrong.statusCode).toBe(403);
    const forged = await t.request({
      method: 'POST',
      url: '/api/v1/login',
      payload,
      cookies: { [ANTI_FORGERY_COOKIE]: 'planted.value' },
      headers: { [ANTI_FORGERY_HEADER]: 'planted.value' },
    });
    expect(forged.statusCode).toBe(403);
    const right = await t.request({
      method: 'POST',
      url: '/api/v1/login',
      payload,
      cookies: { [ANTI_FORGERY_COOKIE]: token as string },
      headers: { [ANTI_FORGERY_HEADER]: token as string },
    });
    expect(right.statusCode).toBe(200);
  });

  it('leaves bearer-only scripts without the cookie alone', async () => {
    const admin = await t.createAccount('ADMIN');
    const response = await t.request({
      method: 'POST',
      url: '/api/v1/accounts',
      token: admin.token,
      payload: { username: 'scripted', password: 'secret1' },
    });
    expect(response.statusCode).toBe(201);
  });

  it('hands no cookie to a request that carries a bearer token', async () => {
    const admin = await t.createAccount('ADMIN');
    const response = await t.request({ method: 'GET', url: '/api/v1/accounts/whoami', token: admin.token });
    expect(response.statusCode).toBe(200);
    expect(cookieOf(response.headers['set-cookie'])).toBeUndefined();
  });
});

describe('security headers and errors', () => {
  it('sends CSP without inline script, nosniff, frame-ancestors none and a referrer policy', async () => {
    const response = await t.request({ method: 'GET', url: '/healthz' });
    const csp = response.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  });

  it('answers unknown API routes with the error body', async () => {
    const response = await t.request({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Route GET /api/v1/nothing-here not found', code: 'NOT_FOUND' });
  });

  it('hides the details of a 5xx', async () => {
    const user = await t.createAccount('USER');
    await sql`alter table accounts rename to accounts_gone`.execute(t.database.db);
    try {
      const response = await t.request({ method: 'GET', url: '/api/v1/accounts/whoami', token: user.token });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ message: 'Internal server error', code: 'INTERNAL' });
      expect(response.body).not.toMatch(/accounts|relation|select|at /i);
    } finally {
      await sql`alter table accounts_gone rename to accounts`.execute(t.database.db);
    }
  });
});

describe('health', () => {
  it('answers /healthz and /readyz with JSON', async () => {
    expect((await t.request({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.request({ method: 'GET', url: '/readyz' })).json()).toEqual({
      status: 'ready',
      database: t.database.engine,
    });
  });
});
