import { sql } from 'kysely';
import { describe, expect, inject, it } from 'vitest';
import { openTestDatabase, TEST_PASSWORD, withTwoServers } from '../../test/helpers.js';
import { ResponseCache } from './response-cache.js';

type Captioned = { caption: string | null };

/** A cache that hears notices, and a loader that counts its loads. */
function setUp(budgetBytes?: number) {
  const cache = new ResponseCache(budgetBytes);
  cache.setLive(true);
  let loads = 0;
  const read = (key: string, value = key, during?: () => void) =>
    cache.read(
      key,
      async () => {
        loads++;
        during?.();
        return value;
      },
      (answer) => answer.length,
    );
  return { cache, read, loads: () => loads };
}

describe('ResponseCache', () => {
  it('keeps an answer until any write, and keeps none read while one happened', async () => {
    const { cache, read, loads } = setUp();
    await read('a');
    await read('a');
    expect(loads()).toBe(1);
    cache.invalidate();
    await read('a');
    expect(loads()).toBe(2);
    // Written while it was read: the answer may be the one from before the write.
    await read('b', 'b', () => cache.invalidate());
    await read('b');
    expect(loads()).toBe(4);
  });

  it('has readers of a key being loaded share the load, unless something was written since it began', async () => {
    const { cache, read, loads } = setUp();
    const [first, second] = await Promise.all([read('a', 'old'), read('a', 'new')]);
    expect([first, second, loads()]).toEqual(['old', 'old', 1]);
    cache.invalidate();
    let written = false;
    const before = read('b', 'before', () => {
      cache.invalidate();
      written = true;
    });
    expect(written).toBe(true);
    expect(await Promise.all([before, read('b', 'after')])).toEqual(['before', 'after']);
    expect(loads()).toBe(3);
  });

  it('keeps nothing read while a transaction is open (its writes count only once committed)', async () => {
    const { cache, read, loads } = setUp();
    await read('a');
    cache.onTransaction('begin');
    await read('a');
    await read('a');
    expect(loads()).toBe(3);
    cache.onTransaction('end');
    await read('a');
    await read('a');
    expect(loads()).toBe(4);
  });

  it('keeps nothing while the notices of other processes are not heard', async () => {
    const { cache, read, loads } = setUp();
    cache.setLive(false);
    await read('a');
    await read('a');
    expect(loads()).toBe(2);
    cache.setLive(true);
    await read('a');
    await read('a');
    expect(loads()).toBe(3);
  });

  it('drops the oldest answers past its budget and never keeps one larger than it', async () => {
    const { cache, read, loads } = setUp(10);
    await read('k1', '1234');
    await read('k2', '1234');
    await read('k3', '1234');
    expect(cache.size).toBe(2);
    await read('k1', '1234');
    expect(loads()).toBe(4);
    await read('big', '12345678901');
    await read('big', '12345678901');
    expect(loads()).toBe(6);
  });
});

describe('TransactionEvents', () => {
  it('keeps its answers through statements that write only tables declared unread, CTEs included', async () => {
    const database = await openTestDatabase();
    try {
      const { cache, read, loads } = setUp();
      cache.ignoreWritesTo(['viewer_events', 'viewer_minutes']);
      const db = database.db.withPlugin(cache.localWrites());
      const event = {
        session_id: '00000000-0000-4000-8000-000000000001',
        at: new Date(),
        type: 'watch',
        value: 1,
        detail: null,
      };
      const minute = {
        input_id: '00000000-0000-4000-8000-000000000002',
        minute: new Date(0),
        player: 'embed' as const,
        account_id: '00000000-0000-4000-8000-000000000003',
        watch_ms: 1,
        rebuffer_ms: 0,
        rebuffer_count: 0,
        error_count: 0,
        latency_sum_ms: 0,
        latency_samples: 0,
        event_count: 1,
      };
      await read('a');
      await db.insertInto('viewer_events').values(event).execute();
      await db
        .with('e', (w) => w.insertInto('viewer_events').values(event).returning('session_id'))
        .insertInto('viewer_minutes')
        .values(minute)
        .onConflict((oc) => oc.doNothing())
        .execute();
      await read('a');
      expect(loads()).toBe(1);
      // A CTE writing another table, and raw SQL, may write anything: the answers go.
      await db
        .with('s', (w) => w.deleteFrom('accounts').where('username', '=', 'nobody').returning('id'))
        .insertInto('viewer_events')
        .values(event)
        .execute();
      await read('a');
      expect(loads()).toBe(2);
      await sql`delete from viewer_events`.execute(db);
      await read('a');
      expect(loads()).toBe(3);
    } finally {
      await database.close();
    }
  });

  it('tells the begin and the end of each transaction, committed or rolled back, once', async () => {
    const database = await openTestDatabase();
    try {
      const phases: string[] = [];
      const stop = database.transactions.subscribe((phase) => phases.push(phase));
      await database.db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        phases.push('work');
      });
      await expect(
        database.db.transaction().execute(async () => {
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      stop();
      await database.db.transaction().execute(async () => undefined);
      expect(phases).toEqual(['begin', 'work', 'end', 'begin', 'end']);
    } finally {
      await database.close();
    }
  });
});

describe('two API servers on one PostgreSQL', () => {
  it.runIf(Boolean(inject('databaseServerUrl')))(
    "one writes: it answers the change on the next request, the other once the database's notice reaches it",
    async () => {
      await withTwoServers(async ([one, two], [app]) => {
        await app.services.accounts.create(null, {
          username: 'alice',
          password: TEST_PASSWORD,
          role: 'USER',
        });
        const signedIn = await fetch(`${one}/api/v1/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'alice', password: TEST_PASSWORD }),
        });
        const { token } = (await signedIn.json()) as { token: string };
        const call = async (server: string, method: string, path: string, body?: object) => {
          const response = await fetch(`${server}/api/v1${path}`, {
            method,
            headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
            ...(body ? { body: JSON.stringify(body) } : {}),
          });
          expect(response.status).toBeLessThan(300);
          return response.json();
        };
        const captions = async (server: string) =>
          ((await call(server, 'GET', '/inputs')) as Captioned[]).map((s) => s.caption);
        const stream = (await call(one, 'POST', '/inputs', { caption: 'first' })) as Captioned & { id: string };
        for (const server of [one, two]) {
          // Read twice: the second answer is the kept one.
          expect(await captions(server)).toEqual(['first']);
          expect(await captions(server)).toEqual(['first']);
          expect(((await call(server, 'GET', `/inputs/${stream.id}`)) as Captioned).caption).toBe('first');
        }
        await call(two, 'PUT', `/inputs/${stream.id}`, { caption: 'changed' });
        expect(await captions(two)).toEqual(['changed']);
        await expect.poll(() => captions(one)).toEqual(['changed']);
        expect(((await call(one, 'GET', `/inputs/${stream.id}`)) as Captioned).caption).toBe('changed');
      });
    },
  );
});
