// Issue 7: billing reports and metric windows over a large usage history.
// 50 accounts with 5,000 streams between them (100 each) and 20 nodes; 10 million raw usage records on
// PostgreSQL and 1 million on PGlite, all generated in SQL (generate_series), and the rollups built from them
// in SQL as the report handlers would have; plus 92 days of hourly metric rollups and 31 days of per-minute
// concurrent sessions. Then, over HTTP as the admin: the account month report, the all-accounts month report
// and 90-day metric windows, p50 and p99 over repeated requests.
//
// PGlite is one process's database: the data is generated while the server is stopped, by opening its data
// directory directly with @electric-sql/pglite, then the server is started again on it.
//
// Environment: BENCH_USAGE_ENGINES (postgres,pglite), BENCH_USAGE_RECORDS_PG (10000000),
// BENCH_USAGE_RECORDS_PGLITE (1000000), BENCH_USAGE_REPEAT (40).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { statisticsRoutes } from '@streamcloud/contract';
import pg from 'pg';
import { freePort, startPostgres, startServer } from '../scripts/lib.mjs';
import { apiClient, BENCH_ADMIN, login, printTable } from './lib.mjs';

const ACCOUNTS = 50;
const STREAMS = 5000;
const NODES = 20;
const ENGINES = (process.env.BENCH_USAGE_ENGINES ?? 'postgres,pglite').split(',');
const RECORDS = {
  postgres: Number(process.env.BENCH_USAGE_RECORDS_PG ?? 10_000_000),
  pglite: Number(process.env.BENCH_USAGE_RECORDS_PGLITE ?? 1_000_000),
};
/** Targets in ms: the reports, and any 90-day metrics window. */
const REPORT_TARGET = { postgres: 300, pglite: 1000 };
const WINDOW_TARGET = 200;
const REPEAT = Number(process.env.BENCH_USAGE_REPEAT ?? 40);
const WARMUP = 3;
/** One concurrent-sessions row per account every this many minutes (the month report's peak). */
const SESSION_MINUTES = { postgres: 5, pglite: 15 };
const ALL_ACCOUNTS = '00000000-0000-0000-0000-000000000000';
/** Raw records per incoming session: 6 s apart, so a session lasts an hour. */
const RECORDS_PER_SESSION = 600;

/** A stable, valid (version 4 shaped) uuid per kind and number. */
const uuidOf = (kind, index) =>
  `overlay(overlay(md5('${kind}-' || ${index}) placing '4' from 13) placing '8' from 17)::uuid`;

/** The statements that fill an empty, migrated database; `exec` runs one SQL text. */
export function generation(records, sessionEvery) {
  const perStream = Math.ceil(records / STREAMS);
  const sessions = Math.max(1, Math.ceil(perStream / RECORDS_PER_SESSION));
  return [
    [
      'streams and nodes',
      `create temporary table bench_streams as
         select s, ${uuidOf('stream', 's')} as stream_id, ${uuidOf('account', `s % ${ACCOUNTS}`)} as account_id,
                case when s % 2 = 0 then 'InputRTMP' else 'InputWebRTC' end as protocol,
                case when (s / 2) % 2 = 0 then 'Transcode' else 'Passthrough' end as processing
         from generate_series(0, ${STREAMS - 1}) s;
       alter table bench_streams add primary key (s);
       create temporary table bench_nodes as
         select n, ${uuidOf('node', 'n')} as node_id from generate_series(0, ${NODES - 1}) n;
       alter table bench_nodes add primary key (n);
       insert into usage_streams (stream_id, account_id, protocol, processing, name, caption)
         select stream_id, account_id, protocol, processing, 'pt+' || stream_id, 'Bench stream ' || s from bench_streams;
       insert into usage_nodes (node_id, name) select node_id, 'bench-node-' || n from bench_nodes;`,
    ],
    [
      `${records.toLocaleString('en')} usage records`,
      // Record g belongs to stream g % S and is its r-th; every 600 records are one incoming session (an hour,
      // a delta every 6 s: three incoming deltas, one internode, one outgoing out of five), sessions spread
      // over the last 90 days, the last one two days ago.
      `insert into usage_records (received_at, at, node_id, stream_id, account_id, protocol, processing, kind,
                                  session_id, started_at, duration, upload, download)
       select x.at, x.at, n.node_id, st.stream_id, st.account_id, st.protocol, st.processing, x.kind,
              case when x.kind = 'incoming' then 'session-' || x.k end,
              case when x.kind = 'incoming' then x.started end,
              case when x.kind = 'incoming' then 10 else 30 end,
              case x.kind when 'incoming' then 1.25e6 when 'internode' then 0 else 3e4 end,
              case x.kind when 'incoming' then 1e4 when 'internode' then 3.75e6 else 1.5e7 end
       from (
         select g % ${STREAMS} as s, r, r / ${RECORDS_PER_SESSION} as k,
                case when r % 5 < 3 then 'incoming' when r % 5 = 3 then 'internode' else 'outgoing' end as kind,
                started, started + ((r % ${RECORDS_PER_SESSION}) * 6) * interval '1 second' as at
         from generate_series(0, ${records - 1}) g
         cross join lateral (select g / ${STREAMS} as r) rr
         cross join lateral (
           select now() - interval '90 days'
                  + (r / ${RECORDS_PER_SESSION} + 1) * (interval '88 days' / ${sessions})
                  + ((g % ${STREAMS}) % 1440) * interval '1 minute' as started
         ) t
       ) x
       join bench_streams st on st.s = x.s
       join bench_nodes n on n.n = case when x.kind = 'incoming' then x.s % ${NODES} else (x.s + 1) % ${NODES} end
       where x.at <= now()`,
    ],
    [
      'usage rollups',
      `insert into usage_hourly (stream_id, hour, node_id, kind, session_id, account_id, protocol, processing,
                                 started_at, ended_at, duration, upload, download)
         select stream_id, date_trunc('hour', at, 'UTC'), node_id, kind, coalesce(session_id, ''), account_id,
                protocol, processing, min(started_at), max(at), sum(duration), sum(upload), sum(download)
         from usage_records
         group by stream_id, date_trunc('hour', at, 'UTC'), node_id, kind, coalesce(session_id, ''), account_id,
                  protocol, processing;
       insert into usage_stream_daily (stream_id, day, node_id, kind, session_id, account_id, protocol, processing,
                                       started_at, ended_at, duration, upload, download)
         select stream_id, (at at time zone 'UTC')::date, node_id, kind, coalesce(session_id, ''), account_id,
                protocol, processing, min(started_at), max(at), sum(duration), sum(upload), sum(download)
         from usage_records
         group by stream_id, (at at time zone 'UTC')::date, node_id, kind, coalesce(session_id, ''), account_id,
                  protocol, processing;
       insert into usage_daily (account_id, day, kind, protocol, processing, duration, upload, download)
         select account_id, (at at time zone 'UTC')::date, kind, protocol, processing,
                sum(duration), sum(upload), sum(download)
         from usage_records
         group by account_id, (at at time zone 'UTC')::date, kind, protocol, processing;`,
    ],
    [
      'hourly account metrics (92 days)',
      `create temporary table bench_accounts as
         select ${uuidOf('account', 'i')} as account_id from generate_series(0, ${ACCOUNTS - 1}) i
         union all select '${ALL_ACCOUNTS}'::uuid;
       insert into metric_account_hours (account_id, name, hour, protocol, processing, value)
         select a.account_id, m.name, h, c.protocol, c.processing,
                case when m.name = 'IncomingBitrate' then 5e7 + 1e7 * sin(extract(epoch from h) / 86400)
                     else 200 + 50 * cos(extract(epoch from h) / 86400) end
         from bench_accounts a
         cross join (values ('IncomingBitrate'), ('ConcurrentViewers')) m(name)
         cross join generate_series(date_trunc('hour', now() - interval '92 days', 'UTC'), now(), interval '1 hour') h
         cross join (values ('InputRTMP', 'Transcode'), ('InputWebRTC', 'Passthrough')) c(protocol, processing);
`,
    ],
    [
      'per-minute concurrent sessions (31 days)',
      `insert into metric_account_minutes (account_id, name, minute, protocol, processing, value)
         select a.account_id, 'ConcurrentSessions', m, c.protocol, c.processing,
                100 + 40 * sin(extract(epoch from m) / 3600)
         from bench_accounts a
         cross join generate_series(date_trunc('minute', now() - interval '31 days', 'UTC'), now(),
                                    interval '${sessionEvery} minutes') m
         cross join (values ('InputRTMP', 'Transcode'), ('InputWebRTC', 'Passthrough')) c(protocol, processing);
`,
    ],
    [
      'hourly stream metrics (92 days, one account)',
      `insert into metric_hours (stream_id, name, hour, node_id, location, account_id, protocol, processing, sum, count, max)
         select st.stream_id, 'IncomingBitrate', h, n.node_id, 'EU', st.account_id, st.protocol, st.processing,
                360 * 2e6, 360, 2.5e6
         from bench_streams st
         join bench_nodes n on n.n = st.s % ${NODES}
         cross join generate_series(date_trunc('hour', now() - interval '92 days', 'UTC'), now(), interval '1 hour') h
         where st.s % ${ACCOUNTS} = 0;`,
    ],
    // A database that has lived with this data has been vacuumed (autovacuum; db/vacuum.ts on PGlite).
    ['vacuum and analyze', 'vacuum analyze'],
  ];
}

async function generate(exec, records, sessionEvery) {
  const timings = [];
  for (const [label, text] of generation(records, sessionEvery)) {
    const started = performance.now();
    await exec(text);
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(`  ${label}: ${seconds.toFixed(1)} s\n`);
    timings.push(seconds);
  }
  return timings.reduce((a, b) => a + b, 0);
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];

/** Sequential requests (a report is one user's click): p50 and p99 of the whole round trip, body read. */
async function measure(url, token, check) {
  const once = async () => {
    const started = performance.now();
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = await response.json();
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
    check(body);
    return ms;
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const times = [];
  for (let i = 0; i < REPEAT; i++) times.push(await once());
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
}

function queries(engine) {
  const now = Date.now();
  const iso = (ms) => new Date(ms).toISOString();
  const month = { from: iso(now - 30 * 86_400_000), to: iso(now) };
  const quarter = { from: iso(now - 90 * 86_400_000), to: iso(now) };
  const account = 'md5(account-0)';
  return [
    {
      name: 'account month report',
      url: (api, ids) => api.url(statisticsRoutes.usage, { params: month, query: { account: ids.account } }),
      target: REPORT_TARGET[engine],
      check: (body) => {
        if (body.streams.length !== STREAMS / ACCOUNTS) throw new Error(`${account}: ${body.streams.length} streams`);
        if (!(body.concurrentSessions > 0)) throw new Error('no concurrent sessions');
      },
    },
    {
      name: 'all-accounts month report',
      url: (api) => api.url(statisticsRoutes.usage, { params: month }),
      target: REPORT_TARGET[engine],
      check: (body) => {
        if (body.streams.length !== STREAMS) throw new Error(`all accounts: ${body.streams.length} streams`);
      },
    },
    {
      name: '90-day account metrics (IncomingTotal, ViewersTotal)',
      url: (api, ids) =>
        api.url(statisticsRoutes.accountMetrics, {
          params: { accountId: ids.account, ...quarter },
          query: { metrics: 'IncomingTotal,ViewersTotal' },
        }),
      target: WINDOW_TARGET,
      check: (body) => {
        if (body.result.length !== 2 || body.result[0].values.length < 700) throw new Error('short series');
      },
    },
    {
      name: '90-day all-accounts metrics (IncomingByOutputType)',
      url: (api) => api.url(statisticsRoutes.usage, { params: quarter, query: { metrics: 'IncomingByOutputType' } }),
      target: WINDOW_TARGET,
      check: (body) => {
        if (body.result.length !== 2) throw new Error(`${body.result.length} series`);
      },
    },
    {
      name: '90-day stream metrics (IncomingBitrate)',
      url: (api, ids) =>
        api.url(statisticsRoutes.streamUsage, {
          params: { streamId: ids.stream, ...quarter },
          query: { metrics: 'IncomingBitrate,IncomingTotal' },
        }),
      target: WINDOW_TARGET,
      check: (body) => {
        if (body.result.length !== 2 || body.result[0].values.length < 700) throw new Error('short stream series');
      },
    },
  ];
}

async function idsOf(query) {
  const rows = await query(
    `select account_id::text as account, stream_id::text as stream from usage_streams where caption = 'Bench stream 0'`,
  );
  return rows[0];
}

async function run(engine, rows) {
  const records = RECORDS[engine];
  process.stdout.write(`\n${engine}: generating ${records.toLocaleString('en')} usage records\n`);
  const dataDir = mkdtempSync(join(tmpdir(), 'streamcloud-usage-bench-'));
  const postgres = engine === 'postgres' ? await startPostgres() : null;
  const env = {
    DATA_DIR: dataDir,
    ADMIN_USERNAME: BENCH_ADMIN.username,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    LOG_LEVEL: 'error',
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
  };
  let server = await startServer({ ...env, PORT: String(await freePort()) });
  try {
    let ids;
    if (postgres) {
      const client = new pg.Client({ connectionString: postgres.url });
      await client.connect();
      try {
        const total = await generate((text) => client.query(text), records, SESSION_MINUTES.postgres);
        process.stdout.write(`  generated in ${total.toFixed(0)} s\n`);
        ids = await idsOf(async (text) => (await client.query(text)).rows);
      } finally {
        await client.end();
      }
    } else {
      // PGlite has one session: stop the server, fill its data directory directly, start it again.
      await server.stop();
      const db = await PGlite.create(join(dataDir, 'pglite'));
      try {
        const total = await generate((text) => db.exec(text), records, SESSION_MINUTES.pglite);
        process.stdout.write(`  generated in ${total.toFixed(0)} s\n`);
        ids = await idsOf(async (text) => (await db.query(text)).rows);
      } finally {
        await db.close();
      }
      server = await startServer({ ...env, PORT: String(await freePort()) });
    }
    const token = await login(server.url);
    for (const query of queries(engine)) {
      const { p50, p99 } = await measure(query.url(apiClient(server.url), ids), token, query.check);
      rows.push({
        engine,
        records: records.toLocaleString('en'),
        query: query.name,
        'p50 ms': Math.round(p50),
        'p99 ms': Math.round(p99),
        'target ms': query.target,
        met: p99 <= query.target ? 'yes' : 'NO',
      });
      process.stdout.write(`  ${query.name}: p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms\n`);
    }
  } finally {
    await server.stop();
    postgres?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export default async function usageBench() {
  const rows = [];
  for (const engine of ENGINES) await run(engine, rows);
  printTable(
    `Usage reports and metric windows (${ACCOUNTS} accounts, ${STREAMS.toLocaleString('en')} streams, ${REPEAT} requests each)`,
    rows,
  );
}
