// Issue 4, API half: GET /api/v1/inputs?limit=200 (the list's page) and GET /api/v1/inputs/{id} with
// 100,000 inputs in the database, on PGlite and on PostgreSQL, beside a bare Fastify hello-world measured in
// the same run: the ratio is the figure. The inputs belong to one USER (the owner's list, its index) and
// are generated in SQL from one input created over the API.
//
// On PostgreSQL the API runs API_WORKERS processes (BENCH_INPUTS_WORKERS, default the cores, as the server's own
// default) and the hello-world as many: like is compared with like. PGlite is always one process.
//
// Environment: BENCH_INPUTS (100000), BENCH_INPUTS_ENGINES (pglite,postgres), BENCH_INPUTS_WORKERS, BENCH_DURATION,
// BENCH_CONNECTIONS.
import { availableParallelism } from 'node:os';
import { accountRoutes, streamRoutes } from '@streamcloud/contract';
import { BENCH_ADMIN, copyInput, load, printTable, startApi, startHello } from './lib.mjs';

const INPUTS = Number(process.env.BENCH_INPUTS ?? 100_000);
const ENGINES = (process.env.BENCH_INPUTS_ENGINES ?? 'pglite,postgres').split(',');
const FORMATS = ['WebRTC', 'RTMP', 'SRT'];
/** A deep page: the console's 51st 'More', where a list of 10,000 streams (the spec's size) ends. */
const DEEP_PAGE = Math.min(10_000, INPUTS - 200);
const USER = { username: 'bench-user', password: 'bench-password-1' };
const POSTGRES_WORKERS = Number(process.env.BENCH_INPUTS_WORKERS ?? availableParallelism());

async function fill(api) {
  const admin = await api.login(BENCH_ADMIN.username, BENCH_ADMIN.password);
  await api.client(admin).call(accountRoutes.create, { body: { ...USER, role: 'USER' } });
  const user = await api.login(USER.username, USER.password);
  const template = await api
    .client(user)
    .call(streamRoutes.create, { body: { caption: 'Bench 00000', format: 'RTMP' } });
  const started = performance.now();
  await api.sql((query) => copyInput(query, template.id, INPUTS, FORMATS));
  process.stdout.write(
    `  ${INPUTS.toLocaleString('en')} inputs in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
}

/** A stream from the middle of the list, so the single read is not the template's (cached) row. */
async function middleInputId(api, token) {
  const { data, headers } = await api
    .client(token)
    .send(streamRoutes.list, { query: { offset: Math.floor(INPUTS / 2), limit: 1 } });
  const total = Number(headers.get('x-total-count'));
  if (total !== INPUTS) throw new Error(`the list counts ${total} inputs, not ${INPUTS}`);
  return data[0].id;
}

export default async function inputsBench() {
  const rows = [];
  for (const engine of ENGINES) {
    const workers = engine === 'postgres' ? POSTGRES_WORKERS : 1;
    const hello = await startHello(workers);
    const baseline = await load(hello.url, { title: 'hello' });
    await hello.stop();
    process.stdout.write(`\n${engine}: generating\n`);
    const api = await startApi(engine, { API_WORKERS: String(workers) });
    try {
      await fill(api);
      const token = await api.login(USER.username, USER.password);
      const headers = { authorization: `Bearer ${token}` };
      const id = await middleInputId(api, token);
      const client = api.client();
      const measures = [
        ['GET /inputs?limit=200', client.url(streamRoutes.list, { query: { limit: 200 } })],
        [
          `GET /inputs?offset=${DEEP_PAGE}&limit=200`,
          client.url(streamRoutes.list, { query: { offset: DEEP_PAGE, limit: 200 } }),
        ],
        ['GET /inputs/{id}', client.url(streamRoutes.get, { params: { id } })],
      ];
      for (const [name, url] of measures) {
        const result = await load(url, { headers, title: `${name} on ${engine}` });
        rows.push({
          engine,
          workers,
          request: name,
          'req/s': Math.round(result.rps),
          'p99 ms': result.p99,
          'hello req/s': Math.round(baseline.rps),
          // The machine's floor: what the same load's p99 is when the server does nothing.
          'hello p99 ms': baseline.p99,
          'ratio to hello': (result.rps / baseline.rps).toFixed(3),
        });
      }
    } finally {
      await api.stop();
    }
  }
  printTable(`The inputs API with ${INPUTS.toLocaleString('en')} inputs of one account, beside a hello-world`, rows);
}
