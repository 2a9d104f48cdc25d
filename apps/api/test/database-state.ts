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
  const state: Record<string, string> = {};
  for (const { tablename } of tables.rows) {
    if (ignore.includes(tablename)) continue;
    const row = await sql<{ rows: number; digest: string | null }>`
      select count(*)::int as rows, md5(string_agg(t::text, '|' order by t::text)) as digest
      from ${sql.table(tablename)} as t`.execute(db);
    state[tablename] = `${row.rows[0]?.rows}:${row.rows[0]?.digest ?? ''}`;
  }
  return state;
}
