import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';

export const TEMPLATE_DATABASE = 'streamcloud_test_template';

/**
 * Migrates one database once for the whole run: a dumped PGlite data directory that each test file
 * loads, or (with TEST_DATABASE_URL) a PostgreSQL template database that each file copies.
 */
export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${TEMPLATE_DATABASE} with (force)`);
    await admin.query(`create database ${TEMPLATE_DATABASE}`);
    await admin.end();
    const template = await openDatabase({ url: withDatabase(serverUrl, TEMPLATE_DATABASE) });
    await migrate(template.db);
    await template.close();
    project.provide('databaseServerUrl', serverUrl);
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'streamcloud-test-'));
  const database = await openDatabase({ memory: true });
  await migrate(database.db);
  const dump = await (await pgliteOf(database)).dumpDataDir('gzip');
  await database.close();
  const dumpPath = join(dir, 'migrated.tar.gz');
  await writeFile(dumpPath, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteDumpPath', dumpPath);
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}

export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function pgliteOf(handle: Awaited<ReturnType<typeof openDatabase>>) {
  if (!handle.pglite) throw new Error('not a PGlite database');
  return handle.pglite;
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDumpPath: string;
    databaseServerUrl: string;
  }
}
