import { sql } from 'kysely';
import type { Db } from './database.js';

/**
 * PGlite runs no autovacuum (it has no background workers): without this, dead rows of every update pile up
 * and the visibility map that index-only scans need is never set. This does autovacuum's work with its
 * default thresholds: a table is due when its dead rows, rows inserted since its last vacuum, or rows
 * changed since its last analyze pass a base plus a share of its live rows.
 */
const DUE = sql`n_dead_tup > 50 + 0.2 * n_live_tup
  or n_ins_since_vacuum > 1000 + 0.2 * n_live_tup
  or n_mod_since_analyze > 50 + 0.1 * n_live_tup`;

/** Vacuums and analyzes each table of the schema that is due; answers their names. */
export async function vacuumWhereDue(db: Db): Promise<string[]> {
  const { rows } = await sql<{ table: string }>`
    select relname as table from pg_stat_user_tables
    where schemaname = current_schema() and (${DUE})
    order by relname`.execute(db);
  for (const { table } of rows) await sql`vacuum (analyze) ${sql.table(table)}`.execute(db);
  return rows.map((row) => row.table);
}
