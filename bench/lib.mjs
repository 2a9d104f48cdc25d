import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { freePort, ROOT, startPostgres, startServer, waitForHttp } from '../scripts/lib.mjs';

export const BENCH_ADMIN = { username: 'bench-admin', password: 'bench-password-1' };
export const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

/** Runs autocannon against one URL; answers req/s (mean) and latency percentiles in ms. */
export async function load(url, { headers = {}, title } = {}) {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_SECONDS, title });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${title ?? url}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

export async function startHello() {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'bench/hello-server.mjs')], {
    env: { ...process.env, PORT: String(port) },
    stdio: 'inherit',
  });
  await waitForHttp(`http://127.0.0.1:${port}/`);
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

/** Starts the real API (PGlite in a temp dir, or the given PostgreSQL) with a known admin. */
export async function startApi(engine, extraEnv = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'streamcloud-bench-'));
  const postgres = engine === 'postgres' ? await startPostgres() : null;
  const port = await freePort();
  const server = await startServer({
    PORT: String(port),
    DATA_DIR: dataDir,
    ADMIN_USERNAME: BENCH_ADMIN.username,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    LOG_LEVEL: 'error',
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...extraEnv,
  });
  return {
    url: server.url,
    databaseUrl: postgres?.url,
    dataDir,
    async login(username = BENCH_ADMIN.username, password = BENCH_ADMIN.password) {
      const response = await fetch(`${server.url}/api/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
      if (!response.ok) throw new Error(`bench login failed: ${response.status}`);
      return (await response.json()).token;
    },
    async stop() {
      await server.stop();
      postgres?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function printTable(title, rows) {
  process.stdout.write(`\n${title}\n`);
  console.table(rows);
}
