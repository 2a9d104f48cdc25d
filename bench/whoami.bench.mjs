// Issue 2: a bare Fastify hello-world beside the API's authenticated GET /api/v1/accounts/whoami,
// on PGlite and on PostgreSQL. The ratio is the figure: what auth (JWT + session lookup) costs.
import { accountRoutes } from '@streamcloud/contract';
import { load, printTable, startApi, startHello } from './lib.mjs';

export default async function whoamiBench() {
  const rows = [];
  for (const engine of ['pglite', 'postgres']) {
    const hello = await startHello();
    const baseline = await load(hello.url, { title: 'hello' });
    await hello.stop();
    const api = await startApi(engine);
    try {
      const token = await api.login();
      const whoami = await load(api.client().url(accountRoutes.whoami), {
        headers: { authorization: `Bearer ${token}` },
        title: `whoami on ${engine}`,
      });
      rows.push({
        engine,
        'hello req/s': Math.round(baseline.rps),
        'whoami req/s': Math.round(whoami.rps),
        'whoami p99 ms': whoami.p99,
        'whoami / hello': (whoami.rps / baseline.rps).toFixed(3),
      });
    } finally {
      await api.stop();
    }
  }
  printTable('GET /api/v1/accounts/whoami against a bare Fastify hello-world', rows);
}
