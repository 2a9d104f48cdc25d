import { describe, expect, it } from 'vitest';
import { concurrently, expectOneWinner, raceForOne } from '../../../test/concurrency.js';
import { adminOnly, ownerOnly, type Roles, roleMatrixTests, signedIn, useTestApp } from '../../../test/helpers.js';

const t = useTestApp({}, { roles: true });
const call = (...args: Parameters<Roles['call']>) => t.roles.call(...args);

describe('role matrix', () => {
  // The account under test is the owner's (alice); "USER other" is bob; impersonating acts as alice.
  roleMatrixTests(
    [
      { name: 'GET /accounts', call: () => ['GET', '/api/v1/accounts'], expected: adminOnly(200) },
      {
        name: 'POST /accounts',
        call: () => ['POST', '/api/v1/accounts', { username: `new-${Math.random()}`, password: 'secret1' }],
        expected: adminOnly(201),
      },
      { name: 'GET /accounts/whoami', call: () => ['GET', '/api/v1/accounts/whoami'], expected: signedIn(200) },
      {
        name: 'GET /accounts/{id}',
        call: () => ['GET', `/api/v1/accounts/${t.roles.owner.id}`],
        expected: { ...ownerOnly(200), 'USER other': 403 },
      },
      {
        name: 'PUT /accounts/{id}',
        call: () => ['PUT', `/api/v1/accounts/${t.roles.owner.id}`, { email: 'alice@example.com' }],
        expected: adminOnly(200),
      },
      {
        name: 'DELETE /accounts/{id}',
        call: () => ['DELETE', `/api/v1/accounts/${t.roles.other.id}`],
        expected: adminOnly(204),
      },
      {
        name: 'GET /accounts/{id}/impersonate',
        call: () => ['GET', `/api/v1/accounts/${t.roles.other.id}/impersonate`],
        expected: { ...adminOnly(200), 'ADMIN impersonating owner': 409 },
      },
      {
        name: 'POST /impersonation/stop',
        call: () => ['POST', '/api/v1/impersonation/stop'],
        expected: { ...signedIn(409), 'ADMIN impersonating owner': 204 },
      },
      { name: 'POST /logout', call: () => ['POST', '/api/v1/logout'], expected: signedIn(204) },
    ],
    { roles: () => t.roles },
  );
});

describe('GET /accounts', () => {
  it('lists every account sorted by username, without password hashes', async () => {
    const response = await call('ADMIN', 'GET', '/api/v1/accounts');
    expect(response.json().map((a: { username: string }) => a.username)).toEqual(['alice', 'bob', 'root']);
    expect(response.body).not.toContain('scrypt');
    expect(response.json()[0]).toEqual({
      id: t.roles.owner.id,
      username: 'alice',
      email: null,
      role: 'USER',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });
});

describe('POST /accounts', () => {
  it('creates a USER by default with a trimmed username, which can then sign in', async () => {
    const response = await call('ADMIN', 'POST', '/api/v1/accounts', { username: '  dave ', password: 'secret1' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ username: 'dave', role: 'USER', email: null });
    await expect(t.login('dave', 'secret1')).resolves.toEqual(expect.any(String));
  });

  it('creates an ADMIN with an email', async () => {
    const response = await call('ADMIN', 'POST', '/api/v1/accounts', {
      username: 'erin',
      password: 'secret1',
      role: 'ADMIN',
      email: 'erin@example.com',
    });
    expect(response.json()).toMatchObject({ role: 'ADMIN', email: 'erin@example.com' });
  });

  it('answers 409 for a username taken in any case', async () => {
    const response = await call('ADMIN', 'POST', '/api/v1/accounts', { username: 'ALICE', password: 'secret1' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: 'Username already exists', code: 'USERNAME_TAKEN' });
  });

  it.each([
    [{ password: 'secret1' }, 'body.username', 'Username is required'],
    [{ username: 'x', password: '12345' }, 'body.password', 'Password must be at least 6 characters'],
    [{ username: 'x', password: 'p'.repeat(129) }, 'body.password', 'Password must be at most 128 characters'],
    [{ username: 'x', password: 'secret1', role: 'ROOT' }, 'body.role', expect.stringContaining('Invalid option')],
    [{ username: 'x', password: 'secret1', email: 'nope' }, 'body.email', expect.any(String)],
    [{ username: 'x', password: 'secret1', extra: 1 }, 'body', 'Unrecognized key: "extra"'],
  ])('answers 400 for %j and changes nothing', async (payload, path, message) => {
    const response = await call('ADMIN', 'POST', '/api/v1/accounts', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toContainEqual({ path, message });
    const list = await call('ADMIN', 'GET', '/api/v1/accounts');
    expect(list.json()).toHaveLength(3);
  });
});

describe('GET /accounts/{id}', () => {
  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect((await call('ADMIN', 'GET', '/api/v1/accounts/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const malformed = await call('ADMIN', 'GET', '/api/v1/accounts/not-a-uuid');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors).toContainEqual({ path: 'params.id', message: 'Must be a UUID' });
  });
});

describe('PUT and DELETE /accounts/{id}', () => {
  it('changes a password so the old one no longer signs in', async () => {
    const response = await call('ADMIN', 'PUT', `/api/v1/accounts/${t.roles.owner.id}`, { password: 'brand-new-1' });
    expect(response.statusCode).toBe(200);
    await expect(t.login('alice', 'brand-new-1')).resolves.toEqual(expect.any(String));
    await expect(t.login('alice', t.roles.owner.password)).rejects.toThrow(/401/);
  });

  it('never removes or demotes the last admin, nor deletes oneself', async () => {
    const demote = await call('ADMIN', 'PUT', `/api/v1/accounts/${t.roles.admin.id}`, { role: 'USER' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().code).toBe('LAST_ADMIN');
    const self = await call('ADMIN', 'DELETE', `/api/v1/accounts/${t.roles.admin.id}`);
    expect(self.statusCode).toBe(409);
  });

  it('answers 400 for an empty change and 404 for an unknown account', async () => {
    expect((await call('ADMIN', 'PUT', `/api/v1/accounts/${t.roles.owner.id}`, {})).statusCode).toBe(400);
    expect((await call('ADMIN', 'DELETE', '/api/v1/accounts/00000000-0000-4000-8000-000000000000')).statusCode).toBe(
      404,
    );
  });
});

describe('first admin', () => {
  it('is created only when no account exists, with a generated password when none is given', async () => {
    expect(await t.app.services.accounts.ensureAdmin(undefined, undefined)).toBeNull();
    await t.reset();
    const created = await t.app.services.accounts.ensureAdmin(undefined, undefined);
    expect(created).toEqual({
      action: 'created-first',
      username: 'admin',
      generatedPassword: expect.stringMatching(/^[\w-]{16}$/),
    });
    await expect(t.login('admin', (created as { generatedPassword: string }).generatedPassword)).resolves.toEqual(
      expect.any(String),
    );
  });

  it('takes the given credentials', async () => {
    await t.reset();
    const created = await t.app.services.accounts.ensureAdmin('boss', 'given-password');
    expect(created).toEqual({ action: 'created-first', username: 'boss', generatedPassword: null });
    await expect(t.login('boss', 'given-password')).resolves.toEqual(expect.any(String));
  });
});

describe("no admin left (the operator's way back)", () => {
  const dropAdmins = () => t.database.db.updateTable('accounts').set({ role: 'USER' }).execute();

  it('says so at start when no ADMIN_USERNAME is given, and changes nothing', async () => {
    await dropAdmins();
    expect(await t.app.services.accounts.ensureAdmin(undefined, undefined)).toEqual({ action: 'none-left' });
    // The demotion was not the app's (as another process's would be): its session cache drops the admin's
    // session when the database's notification arrives, on PostgreSQL on another connection, maybe later.
    await expect.poll(async () => (await call('ADMIN', 'GET', '/api/v1/accounts')).statusCode).toBe(401);
  });

  it('promotes the named account, replaces its password and revokes its sessions and API keys', async () => {
    const key = await call('USER owner', 'POST', '/api/v1/api-keys', { name: 'ci', scope: 'read' });
    expect(key.statusCode, key.body).toBe(201);
    await dropAdmins();
    const recovered = await t.app.services.accounts.ensureAdmin('Alice', 'recovered-1');
    expect(recovered).toEqual({ action: 'promoted', username: 'alice', generatedPassword: null });
    expect((await call('USER owner', 'GET', '/api/v1/accounts/whoami')).statusCode).toBe(401);
    const withKey = await t.request({ method: 'GET', url: '/api/v1/accounts', token: key.json().key });
    expect(withKey.statusCode).toBe(401);
    const token = await t.login('alice', 'recovered-1');
    const list = await t.request({ method: 'GET', url: '/api/v1/accounts', token });
    expect(list.statusCode).toBe(200);
    expect(await t.app.services.accounts.ensureAdmin('bob', 'other-password')).toBeNull();
  });

  it('creates the named account as ADMIN when it does not exist', async () => {
    await dropAdmins();
    const recovered = await t.app.services.accounts.ensureAdmin('rescue', 'rescue-password');
    expect(recovered).toEqual({ action: 'created', username: 'rescue', generatedPassword: null });
    const token = await t.login('rescue', 'rescue-password');
    expect((await t.request({ method: 'GET', url: '/api/v1/accounts', token })).statusCode).toBe(200);
  });
});

describe('races (each "check, then write" in one transaction)', () => {
  it('two admins demoting each other at once leave one admin', async () => {
    const second = await t.createAccount('ADMIN', 'second-admin');
    const responses = await concurrently(2, (index) =>
      t.request({
        method: 'PUT',
        url: `/api/v1/accounts/${index === 0 ? second.id : t.roles.admin.id}`,
        token: index === 0 ? t.roles.admin.token : second.token,
        payload: { role: 'USER' },
      }),
    );
    expectOneWinner(responses, { winner: 200, losers: [401, 409] });
    expect(await adminCount()).toBe(1);
  });

  it('two admins deleting each other at once leave one admin', async () => {
    const second = await t.createAccount('ADMIN', 'second-admin');
    const responses = await concurrently(2, (index) =>
      t.request({
        method: 'DELETE',
        url: `/api/v1/accounts/${index === 0 ? second.id : t.roles.admin.id}`,
        token: index === 0 ? t.roles.admin.token : second.token,
      }),
    );
    expectOneWinner(responses, { winner: 204, losers: [401, 409] });
    expect(await adminCount()).toBe(1);
  });

  it('a ring of six simultaneous demotions leaves at least one admin', async () => {
    const admins = [t.roles.admin];
    for (let i = 1; i < 6; i++) admins.push(await t.createAccount('ADMIN', `ring-${i}`));
    const responses = await concurrently(6, (index) =>
      t.request({
        method: 'PUT',
        url: `/api/v1/accounts/${admins[(index + 1) % 6]?.id}`,
        token: admins[index]?.token,
        payload: { role: 'USER' },
      }),
    );
    for (const response of responses) expect([200, 401, 409], response.body).toContain(response.statusCode);
    expect(await adminCount()).toBeGreaterThanOrEqual(1);
  });

  it('concurrent deletes of one account answer 204 once and 404 to the others', async () => {
    await raceForOne(
      8,
      () => t.request({ method: 'DELETE', url: `/api/v1/accounts/${t.roles.other.id}`, token: t.roles.admin.token }),
      { winner: 204, losers: [404] },
    );
  });

  it('concurrent creations of one username answer 201 once and 409 to the others', async () => {
    await raceForOne(
      8,
      () =>
        t.request({
          method: 'POST',
          url: '/api/v1/accounts',
          token: t.roles.admin.token,
          payload: { username: 'Twin', password: 'secret1' },
        }),
      { winner: 201, losers: [409] },
    );
  });
});

describe('a new password', () => {
  it("revokes the account's other sessions and impersonations", async () => {
    const second = await t.login('alice', t.roles.owner.password);
    const impersonation = await t.impersonate(t.roles.admin, t.roles.owner);
    const response = await call('ADMIN', 'PUT', `/api/v1/accounts/${t.roles.owner.id}`, { password: 'brand-new-1' });
    expect(response.statusCode).toBe(200);
    for (const token of [t.roles.owner.token, second, impersonation]) {
      expect((await t.request({ method: 'GET', url: '/api/v1/accounts/whoami', token })).statusCode).toBe(401);
    }
    expect((await call('ADMIN', 'GET', '/api/v1/accounts/whoami')).statusCode).toBe(200);
    expect((await call('USER other', 'GET', '/api/v1/accounts/whoami')).statusCode).toBe(200);
  });

  it("keeps the caller's own session when it changes its own password", async () => {
    const elsewhere = await t.login('root', t.roles.admin.password);
    const response = await call('ADMIN', 'PUT', `/api/v1/accounts/${t.roles.admin.id}`, { password: 'brand-new-1' });
    expect(response.statusCode).toBe(200);
    expect((await call('ADMIN', 'GET', '/api/v1/accounts/whoami')).statusCode).toBe(200);
    const other = await t.request({ method: 'GET', url: '/api/v1/accounts/whoami', token: elsewhere });
    expect(other.statusCode).toBe(401);
  });
});

async function adminCount(): Promise<number> {
  const rows = await t.database.db.selectFrom('accounts').select('id').where('role', '=', 'ADMIN').execute();
  return rows.length;
}
