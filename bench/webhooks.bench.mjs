// Issue 19: webhooks from change to delivery, through the real API's node-facing reports, outbox and
// dispatcher, to a receiver on this machine that answers 200 at once.
// - throughput: BENCH_WEBHOOK_EVENTS (10,000) events written in batches of 500 stream-state reports as fast
//   as the API takes them; events per second from the first report sent to the last delivery received
//   (bounded by how fast the reports are written);
// - delay: BENCH_WEBHOOK_PACED (500) events, one batch of 10 every 100 ms (100/s, well under the
//   throughput): from the change (the report's time) to its arrival, p50 and p99 (goal: p99 at most 1 s).
// - backlog: the dispatcher alone, without the reports' writing beside it: BENCH_WEBHOOK_EVENTS due
//   deliveries (copies of those sent above) written at once in SQL, then delivered per second from the
//   first arrival to the last (goal: at least 500/s on PostgreSQL).
// Environment: BENCH_WEBHOOK_ENGINES (postgres,pglite), BENCH_WEBHOOK_STREAMS (500).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { nodeReportRoutes, nodeRoutes, streamRoutes } from '@streamcloud/contract';
import { copyInput, printTable, startApi } from './lib.mjs';

const ENGINES = (process.env.BENCH_WEBHOOK_ENGINES ?? 'postgres,pglite').split(',');
const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
const PACED = Number(process.env.BENCH_WEBHOOK_PACED ?? 500);
const STREAMS = Number(process.env.BENCH_WEBHOOK_STREAMS ?? 500);
const BATCH = Math.min(500, STREAMS);

/** Answers 200 at once and notes when each event arrived, with the time of its change. */
async function startReceiver() {
  const arrivals = [];
  let waiting = null;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      response.writeHead(200).end();
      const event = JSON.parse(body);
      arrivals.push({ at: Date.now(), occurredAt: Date.parse(event.occurredAt) });
      if (waiting && arrivals.length >= waiting.count) waiting.resolve();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    arrivals,
    until: (count, timeoutMs) =>
      new Promise((resolve, reject) => {
        if (arrivals.length >= count) return resolve();
        const timer = setTimeout(() => reject(new Error(`${arrivals.length} of ${count} events arrived`)), timeoutMs);
        waiting = {
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
      }),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** STREAMS streams with the receiver as callback, served by one node; answers the node's token and stream ids. */
async function prepare(api, receiver) {
  const admin = api.client(await api.login());
  const node = await admin.call(nodeRoutes.create, {
    body: {
      name: 'bench-node',
      connection: { protocol: 'HTTP', hostname: 'node.example.com', port: 4242 },
      enabled: true,
      opened: true,
    },
  });
  const template = await admin.call(streamRoutes.create, { body: { format: 'RTMP', callbackUri: receiver.url } });
  await api.sql((query) => copyInput(query, template.id, STREAMS, ['RTMP']));
  const ids = [];
  for (let offset = 0; offset < STREAMS; offset += 200) {
    const page = await admin.call(streamRoutes.list, { query: { offset, limit: 200 } });
    ids.push(...page.map((input) => input.id));
  }
  return { token: node.token, ids };
}

/** One batch of stream-state reports: `streams` enter `status` now, one event each. */
async function report(node, streams, status) {
  const at = new Date().toISOString();
  await node.call(nodeReportRoutes.report, {
    body: { reports: streams.map((streamId) => ({ id: randomUUID(), kind: 'stream-state', streamId, at, status })) },
  });
}

/** Each round moves a batch of streams to the other status, so every report is a change and an event. */
function rounds(ids, batch) {
  const status = new Map(ids.map((id) => [id, 'Idle']));
  let next = 0;
  return () => {
    const streams = Array.from({ length: batch }, () => ids[next++ % ids.length]);
    const to = status.get(streams[0]) === 'Ingestion' ? 'Idle' : 'Ingestion';
    for (const id of streams) status.set(id, to);
    return { streams, to };
  };
}

async function measure(engine) {
  const receiver = await startReceiver();
  const api = await startApi(engine, { CALLBACK_ALLOW_PRIVATE_NETWORKS: 'on' });
  try {
    const { token, ids } = await prepare(api, receiver);
    const node = api.client(token);
    const next = rounds(ids, BATCH);

    const started = performance.now();
    for (let sent = 0; sent < EVENTS; sent += BATCH) {
      const { streams, to } = next();
      await report(node, streams, to);
    }
    const written = performance.now();
    await receiver.until(EVENTS, 600_000);
    const seconds = (performance.now() - started) / 1000;
    const throughput = receiver.arrivals.slice(0, EVENTS);

    receiver.arrivals.length = 0;
    const paced = rounds(ids, 10);
    for (let sent = 0; sent < PACED; sent += 10) {
      const { streams, to } = paced();
      await report(node, streams, to);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await receiver.until(PACED, 120_000);
    const delays = receiver.arrivals.map((arrival) => arrival.at - arrival.occurredAt).sort((a, b) => a - b);

    receiver.arrivals.length = 0;
    await api.sql((query) =>
      query(
        `insert into webhook_deliveries
           (id, account_id, type, resource_type, resource_id, stream_id, url, payload, occurred_at, status, next_attempt_at)
         select gen_random_uuid(), account_id, type, resource_type, resource_id, stream_id, url, payload, now(),
           'Pending', now()
         from webhook_deliveries order by seq limit $1`,
        [EVENTS],
      ),
    );
    await receiver.until(EVENTS, 600_000);
    const backlogSeconds = (receiver.arrivals[EVENTS - 1].at - receiver.arrivals[0].at) / 1000;
    const burst = throughput.map((arrival) => arrival.at - arrival.occurredAt).sort((a, b) => a - b);
    return {
      engine,
      events: EVENTS,
      'written/s': Math.round(EVENTS / ((written - started) / 1000)),
      'delivered/s': Math.round(EVENTS / seconds),
      'backlog delivered/s': Math.round((EVENTS - 1) / backlogSeconds),
      'burst delay p99 ms': percentile(burst, 99),
      'paced delay p50 ms': percentile(delays, 50),
      'paced delay p99 ms': percentile(delays, 99),
    };
  } finally {
    await api.stop();
    await receiver.close();
  }
}

export default async function webhooksBench() {
  const rows = [];
  for (const engine of ENGINES) {
    process.stdout.write(`\n${engine}: ${STREAMS} streams with a callback, ${EVENTS} + ${PACED} events\n`);
    rows.push(await measure(engine));
  }
  printTable('Webhooks: change (node report) to delivery at a local receiver answering 200 at once', rows);
}
