import { API_BASE } from '@streamcloud/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { raceForOne } from '../../../test/concurrency.js';
import { databaseState } from '../../../test/database-state.js';
import {
  adminOnly,
  type Caller,
  expectValidationError,
  type Roles,
  roleMatrixTests,
  signedIn,
  TEST_PASSWORD,
  type TestAccount,
  TestClock,
  useTestApp,
} from '../../../test/helpers.js';
import { base32Decode, hotp, timeStep, totp } from '../../lib/totp.js';

// 15 s into a time step, so a code computed by the test is the server's current step's.
const clock = new TestClock(() => Date.parse('2027-01-15T08:00:15Z'));
const t = useTestApp({ clock }, { roles: true });
const call = (...args: Parameters<Roles['call']>) => t.roles.call(...args);
const STEP_MS = 30_000;

interface Enrolled {
  secret: Buffer;
  recoveryCodes: string[];
}

const post = (url: string, token: string | undefined, payload?: object, remoteAddress?: string) =>
  t.request({
    method: 'POST',
    url: `${API_BASE}${url}`,
    token,
    ...(payload ? { payload } : {}),
    ...(remoteAddress ? { remoteAddress } : {}),
  });

/** The current code of a secret, `offset` steps from now. */
const codeOf = (secret: Buffer, offset = 0) => hotp(secret, timeStep(clock.now()) + offset);

async function startEnrolment(account: TestAccount): Promise<Buffer> {
  const response = await post('/two-factor/enrolment', account.token, { password: account.password });
  expect(response.statusCode, response.body).toBe(201);
  const secret = base32Decode(response.json().secret);
  if (!secret) throw new Error('not base32');
  return secret;
}

/** Enrols the account; the clock moves on a step, so the confirmation's code is not the next one's. */
async function enrol(account: TestAccount): Promise<Enrolled> {
  const secret = await startEnrolment(account);
  const confirmed = await post('/two-factor/enrolment/confirm', account.token, { code: totp(secret, clock.now()) });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  clock.advance(STEP_MS);
  return { secret, recoveryCodes: confirmed.json().recoveryCodes };
}

async function passwordStep(account: TestAccount, remoteAddress?: string): Promise<string> {
  const response = await post(
    '/login',
    undefined,
    { username: account.username, password: TEST_PASSWORD },
    remoteAddress,
  );
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json()).toMatchObject({ twoFactorRequired: true });
  expect(response.json().token).toBeUndefined();
  return response.json().ticket;
}

const secondStep = (ticket: string, code: string, remoteAddress?: string) =>
  post('/login/two-factor', undefined, { ticket, code }, remoteAddress);

/**
 * What a change of the caller's own two-factor sign-in answers: `ok` to the owner who set it up; 409 to
 * another account (it has none); 403 to an admin acting as the owner (not its device).
 */
const ownOnly = (ok: number): Record<Caller, number> => ({
  anonymous: 401,
  'USER owner': ok,
  'USER other': 409,
  'ADMIN impersonating owner': 403,
  ADMIN: 409,
});

describe('role matrix', () => {
  roleMatrixTests<{ secret?: Buffer; recoveryCodes?: string[] }>(
    [
      {
        name: 'GET /accounts/{id}/two-factor',
        call: () => ['GET', `${API_BASE}/accounts/${t.roles.owner.id}/two-factor`],
        expected: { ...signedIn(200), 'USER other': 403 },
      },
      {
        name: 'POST /two-factor/enrolment',
        // Every account of the matrix has the test password.
        call: () => ['POST', `${API_BASE}/two-factor/enrolment`, { password: TEST_PASSWORD }],
        // An admin acting as the owner does not enrol the owner's device.
        expected: { ...signedIn(201), 'ADMIN impersonating owner': 403 },
      },
      {
        name: 'POST /two-factor/enrolment/confirm (the owner started it)',
        prepare: async (subject) => {
          subject.secret = await startEnrolment(t.roles.owner);
        },
        call: (subject) => [
          'POST',
          `${API_BASE}/two-factor/enrolment/confirm`,
          { code: totp(subject.secret as Buffer, clock.now()) },
        ],
        expected: ownOnly(200),
      },
      {
        name: 'POST /two-factor/disable (the owner enrolled)',
        prepare: async (subject) => {
          Object.assign(subject, await enrol(t.roles.owner));
        },
        call: (subject) => ['POST', `${API_BASE}/two-factor/disable`, { code: subject.recoveryCodes?.[0] }],
        expected: ownOnly(204),
      },
      {
        name: 'DELETE /accounts/{id}/two-factor (the owner enrolled)',
        prepare: async (subject) => {
          Object.assign(subject, await enrol(t.roles.owner));
        },
        call: () => ['DELETE', `${API_BASE}/accounts/${t.roles.owner.id}/two-factor`],
        expected: adminOnly(204),
      },
      {
        name: 'GET /settings/security',
        call: () => ['GET', `${API_BASE}/settings/security`],
        expected: adminOnly(200),
      },
      {
        name: 'PUT /settings/security',
        call: () => ['PUT', `${API_BASE}/settings/security`, { requireTwoFactorForAdmins: true }],
        expected: adminOnly(200),
      },
    ],
    { roles: () => t.roles, subject: async () => ({}) },
  );

  it('POST /login/two-factor is public, and refuses a ticket it did not issue with 401', async () => {
    const response = await secondStep('not-a-ticket', '123456');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'TICKET_EXPIRED' });
  });

  it('refuses every two-factor route to an API key, even a write key of an ADMIN (403)', async () => {
    const created = await post('/api-keys', t.roles.admin.token, { name: 'ci', scope: 'write' });
    const key = created.json().key as string;
    const routes: Array<[string, string, object?]> = [
      ['GET', `/accounts/${t.roles.admin.id}/two-factor`],
      ['POST', '/two-factor/enrolment', { password: TEST_PASSWORD }],
      ['POST', '/two-factor/enrolment/confirm', { code: '123456' }],
      ['POST', '/two-factor/disable', { code: '123456' }],
      ['DELETE', `/accounts/${t.roles.owner.id}/two-factor`],
      ['GET', '/settings/security'],
      ['PUT', '/settings/security', { requireTwoFactorForAdmins: true }],
    ];
    for (const [method, url, payload] of routes) {
      const response = await t.request({
        method: method as 'GET',
        url: `${API_BASE}${url}`,
        token: key,
        ...(payload ? { payload } : {}),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
    }
  });
});

describe("enrolment asks for the account's password again", () => {
  const pendingSecret = () =>
    t.database.db
      .selectFrom('account_two_factor')
      .select('secret_sealed')
      .where('account_id', '=', t.roles.owner.id)
      .executeTakeFirst();

  it('without a password: 400 naming body.password, and no secret issued', async () => {
    // No body at all is refused as any body route refuses it (400 naming `body`).
    expectValidationError(await post('/two-factor/enrolment', t.roles.owner.token), 'body');
    for (const payload of [{}, { password: '' }]) {
      const response = await post('/two-factor/enrolment', t.roles.owner.token, payload);
      expectValidationError(response, 'body.password', 'Password is required');
      expect(response.json().secret).toBeUndefined();
    }
    expect(await pendingSecret()).toBeUndefined();
  });

  it("a wrong password gets sign-in's answer (as 400: the session stays), issues no secret and is audited", async () => {
    const response = await post('/two-factor/enrolment', t.roles.owner.token, { password: 'not-the-password' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'INVALID_CREDENTIALS', message: 'Invalid username or password' });
    expect(response.json().secret).toBeUndefined();
    expect(await pendingSecret()).toBeUndefined();
    expect((await call('USER owner', 'GET', `${API_BASE}/accounts/whoami`)).statusCode).toBe(200);
    const [entry] = await t.auditLog(1);
    expect(entry).toMatchObject({ action: 'reauthenticate', actor_id: t.roles.owner.id, result: 'failure' });
    expect(JSON.stringify(entry)).not.toContain('not-the-password');
  });

  it('replacing a pending enrolment needs the password too: a wrong one leaves the pending secret', async () => {
    const first = await startEnrolment(t.roles.owner);
    const sealed = await pendingSecret();
    const replaced = await post('/two-factor/enrolment', t.roles.owner.token, { password: 'wrong-password' });
    expect(replaced.statusCode).toBe(400);
    expect(await pendingSecret()).toEqual(sealed);
    const confirmed = await post('/two-factor/enrolment/confirm', t.roles.owner.token, {
      code: totp(first, clock.now()),
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
  });

  it("is throttled with sign-in: past 5 wrong passwords from an address, 429 even with the right one, and sign-in's too", async () => {
    const owner = t.roles.owner;
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await post('/two-factor/enrolment', owner.token, { password: `wrong-${attempt}` })).statusCode).toBe(400);
    }
    const refused = await post('/two-factor/enrolment', owner.token, { password: owner.password });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await pendingSecret()).toBeUndefined();
    const signIn = await post('/login', undefined, { username: owner.username, password: owner.password });
    expect(signIn.statusCode).toBe(429);
    // Another address is not held up by these failures (the account signed in there before or not).
    const elsewhere = await post(
      '/two-factor/enrolment',
      t.roles.other.token,
      { password: t.roles.other.password },
      '203.0.113.9',
    );
    expect(elsewhere.statusCode, elsewhere.body).toBe(201);
    clock.advance(15 * 60_000 + 1000);
    expect((await post('/two-factor/enrolment', owner.token, { password: owner.password })).statusCode).toBe(201);
  });
});

describe('enrolment', () => {
  it('answers the secret and its otpauth:// URI once, stores it sealed, and enables with a code', async () => {
    const owner = t.roles.owner;
    const started = await post('/two-factor/enrolment', owner.token, { password: TEST_PASSWORD });
    expect(started.statusCode).toBe(201);
    const { secret, uri } = started.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toBe(
      `otpauth://totp/Streamcloud%3A${owner.username}?secret=${secret}&issuer=Streamcloud&algorithm=SHA1&digits=6&period=30`,
    );
    expect(JSON.stringify(await databaseState(t.database.db))).not.toContain(secret);
    const status = () => call('USER owner', 'GET', `${API_BASE}/accounts/${owner.id}/two-factor`);
    expect((await status()).json()).toEqual({ enabled: false, enabledAt: null, recoveryCodesLeft: 0 });

    const confirmed = await post('/two-factor/enrolment/confirm', owner.token, {
      code: totp(base32Decode(secret) as Buffer, clock.now()),
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const { recoveryCodes } = confirmed.json() as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    const state = JSON.stringify(await databaseState(t.database.db));
    for (const code of [secret, ...recoveryCodes]) expect(state).not.toContain(code);
    expect((await status()).json()).toEqual({
      enabled: true,
      enabledAt: clock.now().toISOString(),
      recoveryCodesLeft: 10,
    });
    // Enabled: a new enrolment is refused until it is disabled.
    expect((await post('/two-factor/enrolment', owner.token, { password: TEST_PASSWORD })).statusCode).toBe(409);
    const [entry] = await t.auditLog(1);
    expect(entry).toMatchObject({
      action: 'two-factor.enable',
      actor_id: owner.id,
      target_id: owner.id,
      result: 'success',
    });
  });

  it('refuses a wrong code with 400 and enables nothing; a code is required and must be 6 digits (400 naming it)', async () => {
    const owner = t.roles.owner;
    const secret = await startEnrolment(owner);
    const wrong = await post('/two-factor/enrolment/confirm', owner.token, { code: codeOf(secret, 3) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: 'Invalid authentication code', code: 'INVALID_CODE' });
    const before = await databaseState(t.database.db, ['audit_log', 'login_failures']);
    expectValidationError(
      await post('/two-factor/enrolment/confirm', owner.token, { code: '12' }),
      'body.code',
      'Enter the 6-digit code from your app',
    );
    expectValidationError(
      await post('/two-factor/enrolment/confirm', owner.token, {}),
      'body.code',
      'Code is required',
    );
    expectValidationError(
      await post('/two-factor/enrolment/confirm', owner.token, { code: '123456', extra: 1 }),
      'body',
    );
    expect(await databaseState(t.database.db, ['audit_log', 'login_failures'])).toEqual(before);
    const status = await call('USER owner', 'GET', `${API_BASE}/accounts/${owner.id}/two-factor`);
    expect(status.json().enabled).toBe(false);
  });

  it('confirms only an enrolment started: 409 without one', async () => {
    const response = await post('/two-factor/enrolment/confirm', t.roles.owner.token, { code: '123456' });
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('NO_ENROLMENT');
  });

  it('of two confirmations with the same code, one wins; the other gets 409', async () => {
    const owner = t.roles.owner;
    const secret = await startEnrolment(owner);
    const code = totp(secret, clock.now());
    await raceForOne(2, () => post('/two-factor/enrolment/confirm', owner.token, { code }), {
      winner: 200,
      losers: [409],
    });
    const codes = await sql<{ n: number }>`select count(*)::int as n from two_factor_recovery_codes`.execute(
      t.database.db,
    );
    expect(codes.rows[0]?.n).toBe(10);
  });

  it('a second start before confirming replaces the secret: the first one no longer confirms', async () => {
    const owner = t.roles.owner;
    const first = await startEnrolment(owner);
    const second = await startEnrolment(owner);
    const stale = await post('/two-factor/enrolment/confirm', owner.token, { code: totp(first, clock.now()) });
    expect(stale.statusCode).toBe(400);
    const fresh = await post('/two-factor/enrolment/confirm', owner.token, { code: totp(second, clock.now()) });
    expect(fresh.statusCode).toBe(200);
  });
});

describe('sign-in with two factors', () => {
  it('answers a ticket (not a session) for the password, then a session for ticket and code', async () => {
    const owner = t.roles.owner;
    const { secret } = await enrol(owner);
    const ticket = await passwordStep(owner);
    // The ticket is no bearer token.
    expect((await t.request({ method: 'GET', url: `${API_BASE}/accounts/whoami`, token: ticket })).statusCode).toBe(
      401,
    );
    const stored = await sql<{ ticket_hash: string; expires_at: Date }>`select * from two_factor_tickets`.execute(
      t.database.db,
    );
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0]?.ticket_hash).not.toBe(ticket);
    expect(new Date(stored.rows[0]?.expires_at as Date).getTime()).toBe(clock.now().getTime() + 5 * 60_000);

    const signedInResponse = await secondStep(ticket, codeOf(secret));
    expect(signedInResponse.statusCode, signedInResponse.body).toBe(200);
    const token = signedInResponse.json().token;
    const whoami = await t.request({ method: 'GET', url: `${API_BASE}/accounts/whoami`, token });
    expect(whoami.json()).toMatchObject({ id: owner.id, twoFactorEnrolmentRequired: false });
    const [entry] = await t.auditLog(1);
    expect(entry).toMatchObject({
      action: 'login',
      actor_id: owner.id,
      result: 'success',
      details: { twoFactor: 'totp' },
    });
    // Single use.
    clock.advance(STEP_MS);
    const again = await secondStep(ticket, codeOf(secret));
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ code: 'TICKET_EXPIRED' });
  });

  it('keeps the ticket through a wrong code (audited), and drops it after 5 minutes', async () => {
    const owner = t.roles.owner;
    const { secret } = await enrol(owner);
    const ticket = await passwordStep(owner);
    const wrong = await secondStep(ticket, codeOf(secret, 5));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'Invalid authentication code', code: 'INVALID_CODE' });
    const [entry] = await t.auditLog(1);
    expect(entry).toMatchObject({
      action: 'login',
      actor_id: owner.id,
      result: 'failure',
      details: { reason: 'invalid code' },
    });
    clock.advance(5 * 60_000);
    const late = await secondStep(ticket, codeOf(secret));
    expect(late.json()).toMatchObject({ code: 'TICKET_EXPIRED' });
  });

  it('accepts the codes one step either side of now and no further', async () => {
    const owner = t.roles.owner;
    const { secret } = await enrol(owner);
    // The step before now must not be the enrolment's (used already).
    clock.advance(STEP_MS);
    expect((await secondStep(await passwordStep(owner), codeOf(secret, -2))).statusCode).toBe(401);
    expect((await secondStep(await passwordStep(owner), codeOf(secret, 2))).statusCode).toBe(401);
    expect((await secondStep(await passwordStep(owner), codeOf(secret, -1))).statusCode).toBe(200);
    expect((await secondStep(await passwordStep(owner), codeOf(secret, 1))).statusCode).toBe(200);
  });

  it('refuses a code used before, and any older one (replay)', async () => {
    const owner = t.roles.owner;
    const { secret } = await enrol(owner);
    const code = codeOf(secret);
    expect((await secondStep(await passwordStep(owner), code)).statusCode).toBe(200);
    const replay = await secondStep(await passwordStep(owner), code);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ message: 'This code was used already; wait for the next one', code: 'CODE_USED' });
    expect((await secondStep(await passwordStep(owner), codeOf(secret, -1))).statusCode).toBe(401);
    clock.advance(STEP_MS);
    expect((await secondStep(await passwordStep(owner), codeOf(secret))).statusCode).toBe(200);
  });

  it('of two sign-ins with the same code at once, one wins', async () => {
    const owner = t.roles.owner;
    const { secret } = await enrol(owner);
    const tickets = [await passwordStep(owner), await passwordStep(owner)];
    const code = codeOf(secret);
    await raceForOne(2, (index) => secondStep(tickets[index] as string, code), { winner: 200, losers: [401] });
  });

  it('takes a recovery code once, in any case and with or without dashes', async () => {
    const owner = t.roles.owner;
    const { recoveryCodes } = await enrol(owner);
    const [first, second] = recoveryCodes as [string, string];
    const used = await secondStep(await passwordStep(owner), first.toUpperCase().replaceAll('-', ''));
    expect(used.statusCode, used.body).toBe(200);
    const [entry] = await t.auditLog(1);
    expect(entry).toMatchObject({ action: 'login', details: { twoFactor: 'recovery-code' } });
    expect((await secondStep(await passwordStep(owner), first)).statusCode).toBe(401);
    expect((await secondStep(await passwordStep(owner), second)).statusCode).toBe(200);
    const status = await call('USER owner', 'GET', `${API_BASE}/accounts/${owner.id}/two-factor`);
    expect(status.json().recoveryCodesLeft).toBe(8);
  });

  it('of two sign-ins with the same recovery code at once, one wins; the code is gone', async () => {
    const owner = t.roles.owner;
    const { recoveryCodes } = await enrol(owner);
    const code = (recoveryCodes as string[])[0] as string;
    const tickets = [await passwordStep(owner), await passwordStep(owner)];
    await raceForOne(2, (index) => secondStep(tickets[index] as string, code), { winner: 200, losers: [401] });
    const status = await call('USER owner', 'GET', `${API_BASE}/accounts/${owner.id}/two-factor`);
    expect(status.json().recoveryCodesLeft).toBe(9);
  });

  it('answers 429 with Retry-After after 5 wrong codes, even to the right one, until the window passes', async () => {
    const owner = t.roles.owner;
    const { secret } = await enrol(owner);
    const ticket = await passwordStep(owner);
    for (let i = 0; i < 5; i += 1) {
      expect((await secondStep(ticket, codeOf(secret, 4 + i))).statusCode).toBe(401);
    }
    const blocked = await secondStep(ticket, codeOf(secret));
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Another address does not get round it: the count is the account's.
    expect((await secondStep(ticket, codeOf(secret), '10.9.9.9')).statusCode).toBe(429);
    const [entry] = await t.auditLog(1);
    expect(entry).toMatchObject({
      action: 'login',
      result: 'failure',
      details: { reason: 'too many two-factor attempts' },
    });
    clock.advance(15 * 60_000);
    const fresh = await passwordStep(owner);
    expect((await secondStep(fresh, codeOf(secret))).statusCode).toBe(200);
  });

  it('refuses bad input with 400 naming the field', async () => {
    expectValidationError(
      await post('/login/two-factor', undefined, { code: '123456' }),
      'body.ticket',
      'Ticket is required',
    );
    expectValidationError(
      await post('/login/two-factor', undefined, { ticket: 'x', code: 'not a code' }),
      'body.code',
      'Enter the 6-digit code from your app or a recovery code',
    );
    expectValidationError(await post('/login/two-factor', undefined, { ticket: 'x', code: 123456 }), 'body.code');
  });
});

describe('disable and reset', () => {
  it('disables with a current code, not a wrong one; the password alone signs in again', async () => {
    const owner = t.roles.owner;
    const { secret } = await enrol(owner);
    const wrong = await post('/two-factor/disable', owner.token, { code: codeOf(secret, 4) });
    expect(wrong.statusCode).toBe(400);
    expect(
      (await post('/login', undefined, { username: owner.username, password: TEST_PASSWORD })).json().ticket,
    ).toBeDefined();
    const done = await post('/two-factor/disable', owner.token, { code: codeOf(secret) });
    expect(done.statusCode, done.body).toBe(204);
    const [entry] = await t.auditLog(1);
    expect(entry).toMatchObject({ action: 'two-factor.disable', actor_id: owner.id, details: { with: 'totp' } });
    const login = await post('/login', undefined, { username: owner.username, password: TEST_PASSWORD });
    expect(login.json().token).toBeDefined();
    expect(await sql`select * from two_factor_recovery_codes`.execute(t.database.db)).toMatchObject({ rows: [] });
    expect((await post('/two-factor/disable', owner.token, { code: codeOf(secret, 1) })).statusCode).toBe(409);
  });

  it("lets an ADMIN reset another account's two-factor sign-in (audited), not its own, and 404 for no account", async () => {
    const owner = t.roles.owner;
    const admin = t.roles.admin;
    await enrol(owner);
    await enrol(admin);
    const reset = await call('ADMIN', 'DELETE', `${API_BASE}/accounts/${owner.id}/two-factor`);
    expect(reset.statusCode).toBe(204);
    const [entry] = await t.auditLog(1);
    expect(entry).toMatchObject({
      action: 'two-factor.reset',
      actor_id: admin.id,
      target_type: 'account',
      target_id: owner.id,
    });
    expect(
      (await post('/login', undefined, { username: owner.username, password: TEST_PASSWORD })).json().token,
    ).toBeDefined();
    expect((await call('ADMIN', 'DELETE', `${API_BASE}/accounts/${owner.id}/two-factor`)).statusCode).toBe(409);
    expect((await call('ADMIN', 'DELETE', `${API_BASE}/accounts/${admin.id}/two-factor`)).json().code).toBe(
      'SELF_RESET',
    );
    const missing = await call(
      'ADMIN',
      'DELETE',
      `${API_BASE}/accounts/00000000-0000-4000-8000-000000000009/two-factor`,
    );
    expect(missing.statusCode).toBe(404);
  });

  it('of two resets of the same account at once, one answers 204 and the other 409, audited once', async () => {
    const owner = t.roles.owner;
    await enrol(owner);
    await raceForOne(2, () => call('ADMIN', 'DELETE', `${API_BASE}/accounts/${owner.id}/two-factor`), {
      winner: 204,
      losers: [409],
    });
    const entries = await t.auditLog(2);
    expect(entries.filter((entry) => entry.action === 'two-factor.reset')).toHaveLength(1);
  });

  it("a reset drops the account's pending sign-in tickets", async () => {
    const owner = t.roles.owner;
    const { secret } = await enrol(owner);
    const ticket = await passwordStep(owner);
    await call('ADMIN', 'DELETE', `${API_BASE}/accounts/${owner.id}/two-factor`);
    expect((await secondStep(ticket, codeOf(secret))).json()).toMatchObject({ code: 'TICKET_EXPIRED' });
  });
});

describe('requiring two-factor sign-in of ADMIN accounts', () => {
  const whoami = (token: string) => t.request({ method: 'GET', url: `${API_BASE}/accounts/whoami`, token });

  it('flags an ADMIN without it in whoami (not a USER, not while impersonating) until it enrols', async () => {
    const admin = t.roles.admin;
    expect((await call('ADMIN', 'GET', `${API_BASE}/settings/security`)).json()).toEqual({
      requireTwoFactorForAdmins: false,
    });
    expect((await whoami(admin.token)).json().twoFactorEnrolmentRequired).toBe(false);
    const updated = await call('ADMIN', 'PUT', `${API_BASE}/settings/security`, { requireTwoFactorForAdmins: true });
    expect(updated.json()).toEqual({ requireTwoFactorForAdmins: true });
    const [entry] = await t.auditLog(1);
    expect(entry).toMatchObject({ action: 'settings.update', target_type: 'settings', target_id: 'security' });
    expect((await whoami(admin.token)).json().twoFactorEnrolmentRequired).toBe(true);
    expect((await whoami(t.roles.owner.token)).json().twoFactorEnrolmentRequired).toBe(false);
    expect((await call('ADMIN impersonating owner', 'GET', `${API_BASE}/accounts/whoami`)).json()).toMatchObject({
      twoFactorEnrolmentRequired: false,
    });
    await enrol(admin);
    expect((await whoami(admin.token)).json().twoFactorEnrolmentRequired).toBe(false);
  });

  it("refuses such an ADMIN session every route but whoami, sign-out, enrolment and Account settings' reads", async () => {
    const admin = t.roles.admin;
    await call('ADMIN', 'PUT', `${API_BASE}/settings/security`, { requireTwoFactorForAdmins: true });
    const as = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      t.request({ method, url: `${API_BASE}${url}`, token: admin.token, ...(payload ? { payload } : {}) });
    for (const [method, url, payload] of [
      ['GET', `/accounts/${admin.id}`],
      ['GET', '/accounts'],
      ['GET', '/settings/security'],
      ['PUT', '/settings/security', { requireTwoFactorForAdmins: false }],
      ['POST', '/api-keys', { name: 'automation', scope: 'read' }],
      ['GET', `/accounts/${t.roles.owner.id}/impersonate`],
    ] as const) {
      const refused = await as(method, url, payload);
      expect(refused.statusCode, `${method} ${url}`).toBe(403);
      expect(refused.json()).toEqual({
        code: 'TWO_FACTOR_REQUIRED',
        message: 'Administrators must enable two-factor authentication: enable it in Account settings first',
      });
    }
    expect((await as('GET', '/accounts/whoami')).statusCode).toBe(200);
    expect((await as('GET', '/api-keys')).statusCode).toBe(200);
    expect((await as('GET', `/accounts/${admin.id}/two-factor`)).json()).toMatchObject({ enabled: false });
    // Users and an admin acting as a user are not concerned.
    const owned = `${API_BASE}/accounts/${t.roles.owner.id}`;
    expect((await call('USER owner', 'GET', owned)).statusCode).toBe(200);
    expect((await call('ADMIN impersonating owner', 'GET', owned)).statusCode).toBe(200);
    await enrol(admin);
    expect((await as('GET', `/accounts/${admin.id}`)).statusCode).toBe(200);
    // The refused PUT changed nothing.
    expect((await as('GET', '/settings/security')).json()).toEqual({ requireTwoFactorForAdmins: true });
  });

  it('lets such an ADMIN sign out', async () => {
    await call('ADMIN', 'PUT', `${API_BASE}/settings/security`, { requireTwoFactorForAdmins: true });
    expect((await post('/logout', t.roles.admin.token)).statusCode).toBe(204);
    expect((await post('/logout', t.roles.admin.token)).statusCode).toBe(401);
  });

  it('refuses a setting that is not a boolean with 400 naming it, changing nothing', async () => {
    const response = await call('ADMIN', 'PUT', `${API_BASE}/settings/security`, { requireTwoFactorForAdmins: 'yes' });
    expectValidationError(response, 'body.requireTwoFactorForAdmins');
    expect((await call('ADMIN', 'GET', `${API_BASE}/settings/security`)).json()).toEqual({
      requireTwoFactorForAdmins: false,
    });
  });

  it('leaves impersonation as it was: an admin signed in with two factors impersonates without the target code', async () => {
    const admin = t.roles.admin;
    const { secret } = await enrol(admin);
    await enrol(t.roles.owner);
    const token = (await secondStep(await passwordStep(admin), codeOf(secret))).json().token;
    const impersonation = await t.request({
      method: 'GET',
      url: `${API_BASE}/accounts/${t.roles.owner.id}/impersonate`,
      token,
    });
    expect(impersonation.statusCode).toBe(200);
    const acting = await whoami(impersonation.json().token);
    expect(acting.json()).toMatchObject({ id: t.roles.owner.id, impersonatedBy: { id: admin.id } });
  });
});
