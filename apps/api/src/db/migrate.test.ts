import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { openTestDatabase } from '../../test/helpers.js';
import { migrate } from './migrate.js';

const names = async (database: Awaited<ReturnType<typeof openTestDatabase>>) =>
  (await sql<{ name: string }>`select name from schema_migrations order by name`.execute(database.db)).rows.map(
    (row) => row.name,
  );

it('no two migrations share a number', async () => {
  const database = await openTestDatabase();
  try {
    const numbers = (await names(database)).map((name) => name.slice(0, name.indexOf('_')));
    expect(new Set(numbers).size).toBe(numbers.length);
  } finally {
    await database.close();
  }
});

it('a database that applied a renumbered migration under its former name does not run it again', async () => {
  const database = await openTestDatabase();
  try {
    const before = await names(database);
    await sql`update schema_migrations set name = '0012_webhooks.sql' where name = '0013_webhooks.sql'`.execute(
      database.db,
    );
    expect(await migrate(database.db)).toEqual([]);
    expect(await names(database)).toEqual(before);
  } finally {
    await database.close();
  }
});
