import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Db } from './database.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
/** Serialises concurrent starts against one PostgreSQL server. */
const MIGRATION_LOCK_KEY = 7_405_221;
/**
 * Migrations renumbered after they landed, by their name now → their former name: a database that
 * applied one under its former name has it (twice two branches landed the same number; the later one
 * was renumbered: 0012 → 0013, 0016 → 0017).
 */
const FORMER_NAMES: Readonly<Record<string, string>> = {
  '0013_webhooks.sql': '0012_webhooks.sql',
  '0017_audit_screen.sql': '0016_audit_screen.sql',
};

/** Applies, in name order, every SQL file of migrations/ not yet recorded; each in its own transaction. */
export async function migrate(db: Db): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort();
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(conn);
    try {
      await sql`create table if not exists schema_migrations (
        name text primary key,
        applied_at timestamptz not null default now()
      )`.execute(conn);
      const done = await sql<{ name: string }>`select name from schema_migrations`.execute(conn);
      const applied = new Set(done.rows.map((row) => row.name));
      const ran: string[] = [];
      for (const name of files) {
        if (applied.has(name)) continue;
        const former = FORMER_NAMES[name];
        if (former && applied.has(former)) {
          await sql`update schema_migrations set name = ${name} where name = ${former}`.execute(conn);
          continue;
        }
        const text = await readFile(`${MIGRATIONS_DIR}${name}`, 'utf8');
        await conn.transaction().execute(async (trx) => {
          await sql.raw(text).execute(trx);
          await sql`insert into schema_migrations (name) values (${name})`.execute(trx);
        });
        ran.push(name);
      }
      return ran;
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(conn);
    }
  });
}
