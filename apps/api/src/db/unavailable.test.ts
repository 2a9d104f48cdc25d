import { describe, expect, inject, it } from 'vitest';
import { createServerDatabase, TEST_SCRYPT, TEST_SECRET } from '../../test/helpers.js';
import { startTcpProxy } from '../../test/tcp-proxy.js';
import { buildApp } from '../app.js';
import { openDatabase } from './database.js';
import { isDatabaseUnavailable } from './unavailable.js';

describe('isDatabaseUnavailable', () => {
  it('tells an unreachable database from a fault of the query', () => {
    const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
    expect(isDatabaseUnavailable(withCode('ECONNREFUSED'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('57P01', 'terminating connection due to administrator command'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('08006'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([withCode('ECONNREFUSED')], ''))).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: withCode('ECONNRESET') }))).toBe(true);
    expect(isDatabaseUnavailable(withCode('23505', 'duplicate key value'))).toBe(false);
    expect(isDatabaseUnavailable(withCode('42P01', 'relation does not exist'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });
});

describe('PostgreSQL out of reach', () => {
  it.runIf(Boolean(inject('databaseServerUrl')))(
    'answers 503 with Retry-After (readiness and API calls alike, never 500 or a hang) and recovers by itself',
    async () => {
      const database = await createServerDatabase();
      const url = new URL(database.url);
      const proxy = await startTcpProxy(Number(url.port));
      url.port = String(proxy.port);
      const handle = await openDatabase({ url: url.toString() });
      const app = await buildApp({ database: handle, secret: TEST_SECRET, scryptCost: TEST_SCRYPT });
      const signIn = () =>
        app.inject({
          method: 'POST',
          url: '/api/v1/login',
          payload: { username: 'nobody', password: 'wrong-password-1' },
        });
      try {
        expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
        expect((await signIn()).statusCode).toBe(401);

        await proxy.cut();
        const ready = await app.inject({ method: 'GET', url: '/readyz' });
        expect(ready.statusCode).toBe(503);
        const refused = await signIn();
        expect(refused.statusCode).toBe(503);
        expect(refused.headers['retry-after']).toBe('2');
        expect(refused.json()).toEqual({
          message: 'The service is briefly unavailable: try again in a few seconds',
          code: 'DATABASE_UNAVAILABLE',
        });

        await proxy.restore();
        await expect
          .poll(async () => (await app.inject({ method: 'GET', url: '/readyz' })).statusCode, { timeout: 10_000 })
          .toBe(200);
        expect((await signIn()).statusCode).toBe(401);
      } finally {
        await app.close();
        await handle.close();
        await proxy.close();
        await database.drop();
      }
    },
    60_000,
  );
});
