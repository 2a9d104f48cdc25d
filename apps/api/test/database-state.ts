import { sql } from 'kysely';
import type { Db } from '../src/db/database.js';

/**
 * A fingerprint of every table's content (row count and a hash of the rows in a stable order), to assert
 * that a refused request changed nothing. Tables the server writes on every request regardless of the
 * answer can be left out.
 */
export async function databaseState(db: Db, ignore: string[] = []): Promise<Record<string, string>> {
  const tables = await sql<{ tablename: string }>`
    select tablename from pg_tables
    where schemaname = 'public' and tablename <> 'schema_migrations'
    order by tablename`.execute(db);
  const names = tables.rows.map((row) => row.tablename).filter((name) => !ignore.includes(name));
  if (names.length === 0) return {};
  // One statement for all tables: the fuzzing suite takes this fingerprint around every refused write.
  const digests = await sql<{ name: string; rows: number; digest: string | null }>`${sql.join(
    names.map(
      (
        name,
      ) => sql`select cast(${name} as text) as name, count(*)::int as rows, md5(string_agg(t::text, '|' order by t::text)) as digest
        from ${sql.table(name)} as t`,
    ),
    sql` union all `,
  )}`.execute(db);
  return Object.fromEntries(digests.rows.map((row) => [row.name, `${row.rows}:${row.digest ?? ''}`]));
}
