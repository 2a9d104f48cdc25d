import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/helpers.js';
import { precompiled } from './precompiled.js';

let database: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('precompiled', () => {
  it('builds the query once and runs it with each call’s values, keeping its own constants', async () => {
    let builds = 0;
    const usernames = precompiled((db, { prefix, not }: { prefix: string; not: string }) => {
      builds++;
      return db
        .selectFrom('accounts')
        .select('username')
        .where('username', 'like', sql<string>`${prefix} || '%'`)
        .where('username', '!=', not)
        .orderBy('username')
        .limit(2);
    });
    await database.db
      .insertInto('accounts')
      .values(
        ['ann', 'anna', 'annie', 'bob'].map((username) => ({
          id: randomUUID(),
          username,
          password_hash: 'x',
          role: 'USER' as const,
        })),
      )
      .execute();

    expect(await usernames(database.db, { prefix: 'an', not: 'anna' })).toEqual([
      { username: 'ann' },
      { username: 'annie' },
    ]);
    expect(await usernames(database.db, { prefix: 'b', not: '' })).toEqual([{ username: 'bob' }]);
    expect(builds).toBe(1);
  });

  it('runs as a named prepared statement on PostgreSQL, parsed and planned once per connection', async () => {
    const byName = precompiled((db, { username }: { username: string }) =>
      db.selectFrom('accounts').select('id').where('username', '=', username).where('role', '=', 'USER'),
    );
    const prepared = await database.db.transaction().execute(async (trx) => {
      expect(await byName(trx, { username: 'nobody' })).toEqual([]);
      expect(await byName(trx, { username: 'nobody else' })).toEqual([]);
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(trx);
      return rows.filter(({ statement }) => statement.includes('"role" = $2')).length;
    });
    // PGlite runs each query unnamed: one connection in the process, no pool whose connections re-plan.
    expect(prepared).toBe(database.engine === 'postgres' ? 1 : 0);
  });
});
