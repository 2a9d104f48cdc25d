import { describe, expect, inject, it } from 'vitest';
import { TEST_PASSWORD, type TestAccount, TestClock, useTestApp, withTwoServers } from '../../../test/helpers.js';

// Every case first answers the token once, so the next check of it would come from the session cache:
// each revocation must still be refused on the very next request.
const clock = new TestClock();
const t = useTestApp({ clock });

const whoami = (token: string) => t.request({ method: 'GET', url: '/api/v1/accounts/whoami', token });

/** PUT /accounts/{id} as `admin`; answers the status. */
const changeAccount = async (admin: TestAccount, id: string, payload: object) =>
  (await t.request({ method: 'PUT', url: `/api/v1/accounts/${id}`, token: admin.token, payload })).statusCode;

/** Checks the token once (the session is cached from then on) and answers the account it stands for. */
async function cached(account: TestAccount | string) {
  const token = typeof account === 'string' ? account : account.token;
  const first = await whoami(token);
  expect(first.statusCode).toBe(200);
  // Served from memory: not a single query.
  expect(await t.queryCount(async () => expect((await whoami(token)).statusCode).toBe(200))).toBe(0);
  return token;
}

describe('sessions cached in memory', () => {
  it('are refused on the next request after logout', async () => {
    const user = await t.createAccount('USER');
    await cached(user);
    expect((await t.request({ method: 'POST', url: '/api/v1/logout', token: user.token })).statusCode).toBe(204);
    expect((await whoami(user.token)).statusCode).toBe(401);
  });

  it("are refused after the account's demotion, and after its deletion", async () => {
    const boss = await t.createAccount('ADMIN');
    const admin = await t.createAccount('ADMIN');
    const user = await t.createAccount('USER');
    await cached(admin);
    await cached(user);
    expect(await changeAccount(boss, admin.id, { role: 'USER' })).toBe(200);
    expect((await whoami(admin.token)).statusCode).toBe(401);
    const deleted = await t.request({ method: 'DELETE', url: `/api/v1/accounts/${user.id}`, token: boss.token });
    expect(deleted.statusCode).toBe(204);
    expect((await whoami(user.token)).statusCode).toBe(401);
  });

  it("are refused at the end of an impersonation, and when the admin's own session ends", async () => {
    const admin = await t.createAccount('ADMIN');
    const user = await t.createAccount('USER');
    const stopped = await cached(await t.impersonate(admin, user));
    const stop = await t.request({ method: 'POST', url: '/api/v1/impersonation/stop', token: stopped });
    expect(stop.statusCode).toBe(204);
    expect((await whoami(stopped)).statusCode).toBe(401);
    expect((await whoami(admin.token)).statusCode).toBe(200);

    const impersonating = await cached(await t.impersonate(admin, user));
    await t.app.services.auth.logout((await t.app.services.auth.authenticate(admin.token)) ?? expect.fail());
    expect((await whoami(impersonating)).statusCode).toBe(401);
  });

  it('are refused after a password change', async () => {
    const admin = await t.createAccount('ADMIN');
    const user = await t.createAccount('USER');
    await cached(user);
    expect(await changeAccount(admin, user.id, { password: 'another-password-2' })).toBe(200);
    expect((await whoami(user.token)).statusCode).toBe(401);
  });

  it('are refused once expired', async () => {
    const user = await t.createAccount('USER');
    await cached(user);
    clock.advance(12 * 3600_000 + 1000);
    expect((await whoami(user.token)).statusCode).toBe(401);
  });

  it('answer a changed email on the next request', async () => {
    const admin = await t.createAccount('ADMIN');
    const user = await t.createAccount('USER');
    await cached(user);
    expect(await changeAccount(admin, user.id, { email: 'renamed@example.com' })).toBe(200);
    expect((await whoami(user.token)).json()).toMatchObject({ email: 'renamed@example.com' });
  });

  it('are refused once another writer of the database revokes the session, as soon as it is notified', async () => {
    const user = await t.createAccount('USER');
    await cached(user);
    // Not through the app (as another server would): on PGlite the notification is delivered before the
    // statement returns; on PostgreSQL it comes on the listening connection, within the delay the whoami
    // benchmark measures.
    await t.database.db
      .updateTable('sessions')
      .set({ revoked_at: new Date() })
      .where('account_id', '=', user.id)
      .execute();
    await expect.poll(async () => (await whoami(user.token)).statusCode).toBe(401);
  });
});

describe('two API servers on one PostgreSQL', () => {
  it.runIf(Boolean(inject('databaseServerUrl')))(
    'one revokes: it refuses the cached session on the next request, the other once notified',
    async () => {
      await withTwoServers(async ([one, two], [app]) => {
        const accounts = app.services.accounts;
        const user = await accounts.create(null, { username: 'alice', password: TEST_PASSWORD, role: 'USER' });
        const admin = await accounts.create(null, { username: 'root', password: TEST_PASSWORD, role: 'ADMIN' });
        const call = async (server: string, token: string, method = 'GET', path = '/accounts/whoami', body?: object) =>
          (
            await fetch(`${server}/api/v1${path}`, {
              method,
              headers: {
                authorization: `Bearer ${token}`,
                ...(body ? { 'content-type': 'application/json' } : {}),
              },
              ...(body ? { body: JSON.stringify(body) } : {}),
            })
          ).status;
        const signIn = async (username: string) =>
          (
            (await (
              await fetch(`${one}/api/v1/login`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ username, password: TEST_PASSWORD }),
              })
            ).json()) as { token: string }
          ).token;

        await accounts.create(null, { username: 'boss', password: TEST_PASSWORD, role: 'ADMIN' });
        const [first, second, adminToken, bossToken] = [
          await signIn('alice'),
          await signIn('alice'),
          await signIn('root'),
          await signIn('boss'),
        ];
        for (const token of [first, second, adminToken]) {
          for (const server of [one, two]) expect(await call(server, token)).toBe(200);
        }
        // The server that revokes refuses on the next request; the other as soon as the database's
        // notification reaches it (its delay is measured by the whoami benchmark, not timed here).
        expect(await call(one, first, 'POST', '/logout')).toBe(204);
        expect(await call(one, first)).toBe(401);
        await expect.poll(() => call(two, first)).toBe(401);
        expect(await call(two, second)).toBe(200);

        expect(await call(two, bossToken, 'PUT', `/accounts/${admin.id}`, { role: 'USER' })).toBe(200);
        expect(await call(two, adminToken)).toBe(401);
        await expect.poll(() => call(one, adminToken)).toBe(401);

        expect(await call(two, bossToken, 'DELETE', `/accounts/${user.id}`)).toBe(204);
        expect(await call(two, second)).toBe(401);
        await expect.poll(() => call(one, second)).toBe(401);
      });
    },
  );
});
