import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/helpers.js';
import { MODULES } from '../app.js';
import type { DatabaseHandle } from '../db/database.js';

/** The manifests' `tables` are the map of who owns what: every table of the schema has one owner, and only tables. */
describe('the module manifests', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database?.close());

  it('declare every table of the migrated schema, each in exactly one module', async () => {
    const rows = await sql<{ tablename: string }>`
      select tablename from pg_tables where schemaname = 'public' and tablename <> 'schema_migrations'`.execute(
      database.db,
    );
    const declared = MODULES.flatMap(({ manifest }) => (manifest.tables ?? []).map((table) => [table, manifest.name]));
    const owners = new Map<string, string[]>();
    for (const [table, module] of declared) owners.set(table ?? '', [...(owners.get(table ?? '') ?? []), module ?? '']);
    const tables = rows.rows.map((row) => row.tablename).sort();
    expect(tables.filter((table) => !owners.has(table))).toEqual([]);
    expect([...owners.keys()].filter((table) => !tables.includes(table))).toEqual([]);
    expect([...owners].filter(([, modules]) => modules.length > 1)).toEqual([]);
  });
});
