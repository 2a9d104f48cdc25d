import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createApiClient } from '@streamcloud/api-client';
import { API_BASE, authRoutes } from '@streamcloud/contract';
import autocannon from 'autocannon';
import pg from 'pg';
import chromiumArgs from '../e2e/chromium-args.json' with { type: 'json' };
import { freePort, ROOT, startPostgres, startServer, waitForHttp } from '../scripts/lib.mjs';

export const BENCH_ADMIN = { username: 'bench-admin', password: 'bench-password-1' };
export const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
/** Debian's Chromium and the flags of the end-to-end tests (e2e/playwright.config.ts). */
export const CHROMIUM = { executablePath: '/usr/bin/chromium', args: chromiumArgs };

/**
 * The typed API client (packages/api-client, the console's own) on the server at `url`, as `token` (none:
 * anonymous). Its `url(route, …)` builds the address of a route for a load generator.
 */
export function apiClient(url, token = null) {
  return createApiClient({ apiBase: `${url}${API_BASE}`, getToken: () => token });
}

/** Signs in on the server at `url` (the bench admin by default); answers the token. */
export async function login(url, credentials = BENCH_ADMIN) {
  return (await apiClient(url).call(authRoutes.login, { body: credentials })).token;
}

/** Runs autocannon against one URL; answers req/s (mean) and latency percentiles in ms. */
export async function load(url, { headers = {}, title } = {}) {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_SECONDS, title });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${title ?? url}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/** The hello-world yardstick, in `workers` processes on one port (node:cluster), as the API's API_WORKERS. */
export async function startHello(workers = 1) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'bench/hello-server.mjs')], {
    env: { ...process.env, PORT: String(port), WORKERS: String(workers) },
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

/**
 * Starts the real API (PGlite in a temp dir, or the given PostgreSQL) with a known admin. `sql(fn)` hands
 * fn a `query(text, params)` straight on the database, to generate bench data in SQL: a pg client on
 * PostgreSQL; on PGlite, which has one session, the server is stopped meanwhile and started again after.
 */
export async function startApi(engine, extraEnv = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'streamcloud-bench-'));
  const postgres = engine === 'postgres' ? await startPostgres() : null;
  const env = {
    DATA_DIR: dataDir,
    ADMIN_USERNAME: BENCH_ADMIN.username,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    LOG_LEVEL: 'error',
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...extraEnv,
  };
  const start = async () => startServer({ ...env, PORT: String(await freePort()) });
  let server = await start();
  return {
    get url() {
      return server.url;
    },
    databaseUrl: postgres?.url,
    dataDir,
    login(username = BENCH_ADMIN.username, password = BENCH_ADMIN.password) {
      return login(server.url, { username, password });
    },
    /** The typed API client on this server, as `token`. */
    client(token = null) {
      return apiClient(server.url, token);
    },
    async sql(fn) {
      if (postgres) {
        const client = new pg.Client({ connectionString: postgres.url });
        await client.connect();
        try {
          return await fn(async (text, params) => (await client.query(text, params)).rows);
        } finally {
          await client.end();
        }
      }
      await server.stop();
      const db = await PGlite.create(join(dataDir, 'pglite'));
      try {
        return await fn(async (text, params) => (await db.query(text, params)).rows);
      } finally {
        await db.close();
        server = await start();
      }
    },
    async stop() {
      await server.stop();
      postgres?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Makes count - 1 copies of one input's row in SQL, each with its own id, name, caption ('Bench 00001' …)
 * and format (taken in turn from `formats`): fast, and whatever the columns are.
 */
export async function copyInput(query, templateId, count, formats) {
  const copied = {
    id: 'gen_random_uuid()',
    name: `(case when i % 3 = 0 then 'pt+' else 'in+' end) || gen_random_uuid()`,
    caption: `'Bench ' || lpad(i::text, 5, '0')`,
    format: '($3::text[])[i % array_length($3::text[], 1) + 1]',
  };
  const columns = (
    await query(
      `select column_name from information_schema.columns
       where table_schema = current_schema() and table_name = 'inputs' order by ordinal_position`,
    )
  ).map((row) => row.column_name);
  await query(
    `insert into inputs (${columns.map((column) => `"${column}"`).join(', ')})
     select ${columns.map((column) => copied[column] ?? `t."${column}"`).join(', ')}
     from inputs t, generate_series(1, $2::int - 1) as i
     where t.id = $1`,
    [templateId, count, formats],
  );
  // As autovacuum (db/vacuum.ts on PGlite) would have left the table by the time it is read. The checkpoint
  // first: the bench's PostgreSQL commits asynchronously, and until the insert's commit is flushed vacuum
  // cannot mark its pages all-visible (a later autovacuum would), so the list's index-only scans would not be.
  await query('checkpoint');
  await query('vacuum analyze inputs');
}

/** A browser context (1280x900) signed in to the console as the bench admin, through its sign-in page. */
export async function signedInContext(browser, baseUrl) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const signIn = await context.newPage();
  await signIn.goto(`${baseUrl}/#/login`);
  await signIn.getByLabel('Username').fill(BENCH_ADMIN.username);
  await signIn.getByLabel('Password').fill(BENCH_ADMIN.password);
  await signIn.getByRole('button', { name: 'Login' }).click();
  await signIn.getByText(/streams loaded/).waitFor();
  await signIn.close();
  return context;
}

/**
 * Chooses `outputId` in the stream dashboard's Preview card (its Output picker) as soon as the picker offers
 * it: the user's fastest path to that output's playback.
 */
export async function pickPreviewOutput(page, outputId, timeout) {
  const picker = page.getByRole('region', { name: 'Preview' }).getByRole('combobox', { name: 'Output' });
  await picker.locator(`option[value="${outputId}"]`).waitFor({ state: 'attached', timeout });
  await picker.selectOption(outputId);
}

/** The nearest-rank percentile `p` (0–100) of `values`; NaN when there are none. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function printTable(title, rows) {
  process.stdout.write(`\n${title}\n`);
  console.table(rows);
}
