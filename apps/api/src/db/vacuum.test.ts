import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from './database.js';
import { vacuumWhereDue } from './vacuum.js';

// The job runs only on PGlite (app.ts), so it is tested there whatever database the suite uses.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openDatabase({ memory: true });
  await sql`create table churned (id int primary key, value int not null)`.execute(database.db);
  await sql`create table quiet (id int primary key)`.execute(database.db);
});
afterAll(() => database.close());

const stats = async (table: string) => {
  // Statistics reach pg_stat_* when a backend reports them, at most once a second unless forced.
  await sql`select pg_stat_force_next_flush()`.execute(database.db);
  await sql`select 1`.execute(database.db);
  return (
    await sql<{ dead: number; vacuumed: Date | null }>`
      select n_dead_tup as dead, last_vacuum as vacuumed from pg_stat_user_tables where relname = ${table}`.execute(
      database.db,
    )
  ).rows[0];
};

describe('vacuumWhereDue', () => {
  it('vacuums the tables past the thresholds, clears their dead rows, and leaves the others', async () => {
    await sql`insert into churned select i, 0 from generate_series(1, 2000) as i`.execute(database.db);
    await sql`insert into quiet values (1)`.execute(database.db);
    for (let round = 0; round < 3; round++) await sql`update churned set value = value + 1`.execute(database.db);
    await sql`analyze quiet`.execute(database.db);
    expect((await stats('churned'))?.dead).toBeGreaterThan(2000);

    expect(await vacuumWhereDue(database.db)).toEqual(['churned']);
    expect(await stats('churned')).toMatchObject({ dead: 0, vacuumed: expect.any(Date) });
    expect((await stats('quiet'))?.vacuumed).toBeNull();
    expect(await vacuumWhereDue(database.db)).toEqual([]);
  });
});
