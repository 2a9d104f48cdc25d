import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { TEST_SECRET } from '../test/helpers.js';
import { buildApp } from './app.js';
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
function startServer(dir: string) {
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
