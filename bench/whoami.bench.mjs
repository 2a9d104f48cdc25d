// Issue 2: a bare Fastify hello-world beside the API's authenticated GET /api/v1/accounts/whoami,
// on PGlite and on PostgreSQL, each in as many processes as the API runs. The ratio is the figure: what auth (JWT + session lookup) costs.
// Issue 21: on PostgreSQL, how long after a session is revoked by another writer of the database (as
// another API server would) the server refuses its cached session: the LISTEN/NOTIFY delay, polled over HTTP.
import { accountRoutes } from '@streamcloud/contract';
import { load, printTable, startApi, startHello } from './lib.mjs';

const REVOCATIONS = 20;

/** Median and max ms from a revoking commit (by SQL) to the first 401 of a session the server had cached. */
async function invalidationDelay(api) {
  const delays = [];
  await api.sql(async (query) => {
    for (let index = 0; index < REVOCATIONS; index++) {
      const token = await api.login();
      const client = api.client(token);
      await client.call(accountRoutes.whoami);
      await client.call(accountRoutes.whoami);
      const [{ sid }] = await query(
        'select id as sid from sessions where revoked_at is null order by created_at desc limit 1',
      );
      await query('update sessions set revoked_at = now() where id = $1', [sid]);
      const revoked = performance.now();
      while ((await client.send(accountRoutes.whoami).catch((error) => error)).status !== 401) {
        if (performance.now() - revoked > 5000) throw new Error('the revocation was not heard within 5 s');
      }
      delays.push(performance.now() - revoked);
    }
  });
  delays.sort((a, b) => a - b);
  return `${delays[Math.floor(delays.length / 2)].toFixed(1)} / ${delays.at(-1).toFixed(1)}`;
}

export default async function whoamiBench() {
  const rows = [];
  // PostgreSQL with one API process and with two (API_WORKERS, node:cluster on one port); PGlite runs one.
  for (const [engine, workers] of [
    ['pglite', 1],
    ['postgres', 1],
    ['postgres', 2],
  ]) {
    // The yardstick runs as many processes as the API: one process's hello-world against two API
    // processes would credit the API with the second process (or, on two loaded cores, charge it for it).
    const hello = await startHello(workers);
    const baseline = await load(hello.url, { title: 'hello' });
    await hello.stop();
    const api = await startApi(engine, { API_WORKERS: String(workers) });
    try {
      const token = await api.login();
      const whoami = await load(api.client().url(accountRoutes.whoami), {
        headers: { authorization: `Bearer ${token}` },
        title: `whoami on ${engine} (${workers})`,
      });
      const delay = engine === 'postgres' ? await invalidationDelay(api) : null;
      rows.push({
        engine,
        workers,
        'hello req/s': Math.round(baseline.rps),
        'whoami req/s': Math.round(whoami.rps),
        'whoami p99 ms': whoami.p99,
        'whoami / hello': (whoami.rps / baseline.rps).toFixed(3),
        // PGlite notifies in-process, before the revoking statement returns: nothing to wait for.
        'revocation heard ms (median / max)': delay ?? 'in the statement',
      });
    } finally {
      await api.stop();
    }
  }
  printTable('GET /api/v1/accounts/whoami against a bare Fastify hello-world', rows);
}
