import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createServerDatabase, TEST_SECRET } from '../test/helpers.js';
import { API_WORKER_HEADER, buildApp, LEADER_LOCK_KEY } from './app.js';
import { openDatabase } from './db/database.js';

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));
const started: ChildProcess[] = [];
let dataDir = '';

afterAll(async () => {
  for (const child of started) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Starts `npm start`'s server on a free port; answers once it runs, or when it exits first. */
function startServer(dir: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    env: {
      ...process.env,
      DATA_DIR: dir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOCAL_MEDIA_NODE: 'off',
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: 'admin-password-1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const outcome = new Promise<{ port: number } | { exitCode: number | null; stderr: string }>((resolve) => {
    child.stdout?.on('data', () => {
      const port = /running on http:\/\/localhost:(\d+)\//.exec(stdout)?.[1];
      if (port) resolve({ port: Number(port) });
    });
    child.once('exit', (exitCode) => resolve({ exitCode, stderr }));
  });
  return { child, outcome };
}

describe('one server per embedded data directory', () => {
  it('refuses to start a second server on the same DATA_DIR, and the first keeps serving', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'streamcloud-two-servers-'));
    // The first server runs here, on a data directory made from the migrated dump when the run has one
    // (the PostgreSQL run has not: /readyz needs no tables).
    const dump = inject('pgliteDumpPath');
    const database = await openDatabase({
      dataDir: join(dataDir, 'pglite'),
      ...(dump ? { loadDataDir: new Blob([await readFile(dump)]) } : {}),
    });
    const first = await buildApp({ database, secret: TEST_SECRET });
    try {
      await first.listen({ port: 0, host: '127.0.0.1' });
      const { port } = first.server.address() as { port: number };

      const second = await startServer(dataDir).outcome;
      expect(second).toEqual({
        exitCode: 2,
        stderr: expect.stringContaining(
          `Another Streamcloud server is already using the data directory ${join(dataDir, 'pglite')}`,
        ),
      });

      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(200);
    } finally {
      await first.close();
      await database.close();
    }
  }, 120_000);
});

describe('API_WORKERS on PostgreSQL', () => {
  it.runIf(Boolean(inject('databaseServerUrl')))(
    'serves one port from two processes, one of which leads (runs the periodic jobs) and hands over when it ends',
    async () => {
      const database = await createServerDatabase();
      const dir = await mkdtemp(join(tmpdir(), 'streamcloud-workers-'));
      const observer = new pg.Client({ connectionString: database.url });
      try {
        const { child, outcome } = startServer(dir, { DATABASE_URL: database.url, API_WORKERS: '2' });
        const started = await outcome;
        if (!('port' in started)) throw new Error(`the server did not start: ${started.stderr}`);
        await observer.connect();
        const rows = async (text: string) => (await observer.query(text)).rows;
        // Each worker listens for session changes on a connection of its own: two processes serve.
        const listeners = `select count(*)::int as n from pg_stat_activity
          where datname = current_database() and query = 'listen "auth_invalidation"'`;
        await expect.poll(async () => (await rows(listeners))[0].n, { timeout: 30_000 }).toBe(2);
        const leaders = `select pid from pg_locks where locktype = 'advisory' and objid = ${LEADER_LOCK_KEY} and granted`;
        await expect.poll(async () => (await rows(leaders)).length, { timeout: 30_000 }).toBe(1);
        const [leader] = await rows(leaders);
        for (let attempt = 0; attempt < 4; attempt++) {
          const ready = await fetch(`http://127.0.0.1:${started.port}/readyz`);
          expect(ready.status).toBe(200);
          // Each answer names the worker that gave it (the chaos run tells so whose answers a console page got).
          expect(ready.headers.get(API_WORKER_HEADER)).toMatch(/^[1-9][0-9]*$/);
        }
        // The leader's lock connection ends (as when its process dies): the other worker takes the lead.
        await rows(`select pg_terminate_backend(${leader.pid})`);
        await expect
          .poll(async () => (await rows(leaders)).filter((row) => row.pid !== leader.pid).length, { timeout: 30_000 })
          .toBe(1);
        expect((await rows(leaders)).length).toBe(1);
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
      } finally {
        await observer.end().catch(() => undefined);
        await rm(dir, { recursive: true, force: true });
        await database.drop();
      }
    },
    120_000,
  );
});
