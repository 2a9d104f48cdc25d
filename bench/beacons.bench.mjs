// Issue 37: the viewer beacon's ingest rate on one API process, and the analytics' query time over 10 million
// events.
//
// Ingest: 10 outputs of one stream, 200 viewer sessions issued by GET /play/{id}; BENCH_CONNECTIONS (20)
// concurrent senders post batches of 50 events (a mixed playback: watch, latency, a stall, a rendition, a
// startup on each session's first batch) for BENCH_DURATION seconds; every answer must be 204 (sessions and
// outputs are chosen in turn so no rate limit is reached). Goal: >= 5,000 events/s on PostgreSQL.
//
// Query: the tables are then filled in SQL (generate_series) with BENCH_BEACON_EVENTS (10,000,000) events of
// 50 per session (200,000 sessions over the last 30 days, 20 streams of one account and 20 of others) with
// their session and minute rollups, as ingest would have written them; then the stream's and the account's
// 30-day analytics, the admin's all-accounts analytics and a stream's session list, p50 and p99 over repeated
// requests. Goal: <= 300 ms. The account's and every account's windows are measured twice: reading the sessions
// (before the API's periodic job rolled the generated hours up) and then reading the hourly rollups for the
// hours they cover (the bench drops the rollup state so the job rolls the generated history, as after an
// upgrade, and waits until it is rolled up to 25 hours ago).
//
// Environment: BENCH_BEACONS_ENGINES (postgres), BENCH_BEACON_EVENTS (10000000), BENCH_BEACONS_REPEAT (20).
import { analyticsRoutes, playRoutes, streamRoutes } from '@streamcloud/contract';
import { CONNECTIONS, DURATION_SECONDS, percentile, printTable, startApi } from './lib.mjs';

const ENGINES = (process.env.BENCH_BEACONS_ENGINES ?? 'postgres').split(',');
const EVENTS = Number(process.env.BENCH_BEACON_EVENTS ?? 10_000_000);
const REPEAT = Number(process.env.BENCH_BEACONS_REPEAT ?? 20);
const OUTPUTS = 10;
const SESSIONS = 200;
const BATCH = 50;
const EVENTS_PER_SESSION = 50;
const STREAMS = 40;
const INGEST_TARGET = 5000;
const QUERY_TARGET = 300;

/** A batch of a playback: the session's first carries its startup and rendition. */
function batchOf(session, index) {
  const base = index * 10_000;
  const events = [];
  if (index === 0) {
    events.push({ type: 'startup', at: 400, startupMs: 300, ttffMs: 900 });
    events.push({ type: 'rendition', at: 900, width: 1280, height: 720, bitrate: 2_500_000 });
  }
  while (events.length < BATCH) {
    const at = base + events.length * 200;
    const kind = events.length % 10;
    if (kind === 0) events.push({ type: 'rebuffer', at, durationMs: 300 });
    else if (kind < 4) events.push({ type: 'latency', at, latencyMs: 1500 + kind * 100 });
    else events.push({ type: 'watch', at, watchedMs: 200 });
  }
  return { session, player: 'embed', sentAt: base + BATCH * 200, events };
}

async function ingest(server, rows, engine) {
  const token = await server.login();
  const api = server.client(token);
  const stream = await api.call(streamRoutes.create, { body: { caption: 'Beacon bench' } });
  const outputs = [];
  for (let i = 0; i < OUTPUTS; i++) {
    outputs.push(await api.call(streamRoutes.createOutput, { body: { streamId: stream.id, format: 'WebRTC' } }));
  }
  const viewer = server.client();
  const sessions = [];
  for (let i = 0; i < SESSIONS; i++) {
    const output = outputs[i % OUTPUTS];
    const info = await viewer.call(playRoutes.info, { params: { id: output.id } });
    sessions.push({
      url: viewer.url(analyticsRoutes.beacon, { params: { id: output.id } }),
      session: info.viewerSession,
      sent: 0,
    });
  }
  let next = 0;
  let events = 0;
  let batches = 0;
  const latencies = [];
  const until = performance.now() + DURATION_SECONDS * 1000;
  const sender = async () => {
    while (performance.now() < until) {
      const target = sessions[next++ % SESSIONS];
      const body = JSON.stringify(batchOf(target.session, target.sent++));
      const started = performance.now();
      const response = await fetch(target.url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      });
      latencies.push(performance.now() - started);
      if (response.status !== 204) throw new Error(`beacon: ${response.status} ${await response.text()}`);
      batches += 1;
      events += BATCH;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, sender));
  const seconds = (performance.now() - started) / 1000;
  const rate = events / seconds;
  rows.push({
    engine,
    measure: `ingest, ${CONNECTIONS} senders, batches of ${BATCH}`,
    value: `${Math.round(rate).toLocaleString('en')} events/s (${Math.round(batches / seconds)} batches/s)`,
    'p50 ms': Math.round(percentile(latencies, 50)),
    'p99 ms': Math.round(percentile(latencies, 99)),
    target: `>= ${INGEST_TARGET} events/s`,
    met: rate >= INGEST_TARGET ? 'yes' : 'NO',
  });
  process.stdout.write(`  ingest: ${Math.round(rate)} events/s\n`);
}

const uuidOf = (kind, index) =>
  `overlay(overlay(md5('${kind}-' || ${index}) placing '4' from 13) placing '8' from 17)::uuid`;

/** 10 M events, their sessions and minutes, in SQL: session k belongs to stream k % STREAMS. */
function generation(events) {
  const sessions = Math.ceil(events / EVENTS_PER_SESSION);
  return [
    [
      `${sessions.toLocaleString('en')} sessions`,
      `insert into viewer_sessions (id, output_id, input_id, account_id, player, browser, os, device, country,
         started_at, last_at, startup_ms, ttff_ms, watch_ms, rebuffer_count, rebuffer_ms, error_count,
         latency_sum_ms, latency_samples, rendition_switches, rendition_height, rendition_bitrate, event_count)
       select ${uuidOf('session', 'k')}, ${uuidOf('output', `k % ${STREAMS}`)},
              case when k % ${STREAMS} < ${STREAMS / 2} then ($2::uuid[])[1 + k % ${STREAMS}]
                   else ${uuidOf('stream', `k % ${STREAMS}`)} end,
              case when k % ${STREAMS} < ${STREAMS / 2} then $1::uuid else ${uuidOf('account', `k % ${STREAMS}`)} end,
              case when k % 17 = 0 then 'preview' else 'embed' end,
              (array['Chrome','Firefox','Safari','Edge'])[1 + k % 4], (array['Windows','macOS','Android','iOS','Linux'])[1 + k % 5],
              (array['desktop','mobile','tablet','tv'])[1 + k % 4], (array['US','DE','FR','GB','JP','BR','unknown'])[1 + k % 7],
              t, t + interval '10 minutes', 200 + k % 500, 600 + k % 1500, 590000, k % 4, (k % 4) * 300, (k % 13 = 0)::int,
              (1500 + k % 700) * 10, 10, 1, (array[360, 720, 1080])[1 + k % 3], 2.5e6, ${EVENTS_PER_SESSION}
       from generate_series(0, ${sessions - 1}) k
       cross join lateral (select now() - interval '30 days' + (k::float8 / ${sessions}) * interval '30 days' as t) tt`,
    ],
    [
      `${events.toLocaleString('en')} events`,
      `insert into viewer_events (session_id, at, type, value, detail)
       select s.id, s.started_at + (e * 12) * interval '1 second',
              (array['watch','latency','watch','rebuffer','watch'])[1 + e % 5], 1000, null
       from viewer_sessions s cross join generate_series(0, ${EVENTS_PER_SESSION - 1}) e`,
    ],
    [
      'minute rollups',
      `insert into viewer_minutes (input_id, minute, player, account_id, watch_ms, rebuffer_ms, rebuffer_count,
         error_count, latency_sum_ms, latency_samples, event_count)
       select input_id, date_trunc('minute', started_at), player, min(account_id::text)::uuid, sum(watch_ms),
              sum(rebuffer_ms), sum(rebuffer_count), sum(error_count), sum(latency_sum_ms), sum(latency_samples),
              sum(event_count)
       from viewer_sessions group by input_id, date_trunc('minute', started_at), player
       on conflict do nothing`,
    ],
    ['vacuum and analyze', 'vacuum analyze'],
  ];
}

async function queryTimes(server, rows, engine) {
  const token = await server.login();
  const api = server.client(token);
  const [{ account }] = await server.sql((query) =>
    query(`select id::text as account from accounts where username = 'bench-admin'`),
  );
  // Half the streams are the bench admin's own (made through the API, so the stream's access check passes).
  const own = [];
  for (let i = 0; i < STREAMS / 2; i++)
    own.push((await api.call(streamRoutes.create, { body: { caption: `Bench ${i}` } })).id);
  const stream = own[0];
  // The rollup job's first run (15 s after the start) is over before the history is generated (PostgreSQL only:
  // the bench reads a PGlite database by stopping its server); the sessions are measured before it is rolled.
  const rollups = engine === 'postgres';
  if (rollups) await rollupState(server, (state) => state !== undefined);
  process.stdout.write(`  generating ${EVENTS.toLocaleString('en')} events\n`);
  await server.sql(async (query) => {
    for (const [label, text] of generation(EVENTS)) {
      const started = performance.now();
      await query(text, text.includes('$1') ? [account, own] : undefined);
      process.stdout.write(`    ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    }
  });
  // No hour rolled up yet, and none to roll: the first measures read the sessions only.
  if (rollups) {
    await server.sql(async (query) => {
      for (const table of ['viewer_hours', 'viewer_hour_buckets', 'viewer_hour_groups'])
        await query(`delete from ${table}`);
      await query(
        `update viewer_rollup_state set rolled_from = date_trunc('hour', now()), rolled_until = date_trunc('hour', now())`,
      );
    });
  }
  const now = Date.now();
  const window = { from: new Date(now - 30 * 86_400_000).toISOString(), to: new Date(now).toISOString() };
  const accountCases = (label) => [
    [
      `one account (20 streams), 30 days, ${label}`,
      () => api.call(analyticsRoutes.account, { query: { ...window, account } }),
    ],
    [`every account (admin), 30 days, ${label}`, () => api.call(analyticsRoutes.account, { query: window })],
  ];
  await measure(rows, engine, [
    ['one stream, 30 days', () => api.call(analyticsRoutes.stream, { params: { id: stream }, query: window })],
    ...accountCases('sessions'),
    ['a stream session list', () => api.call(analyticsRoutes.sessions, { params: { id: stream }, query: window })],
  ]);
  if (!rollups) return;
  const started = performance.now();
  await server.sql((query) => query('delete from viewer_rollup_state'));
  const rolledBy = new Date(now - 26 * 3600_000);
  await rollupState(server, (state) => state !== undefined && new Date(state.rolled_until) >= rolledBy);
  process.stdout.write(`  rolled up 30 days by hour in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  await measure(rows, engine, accountCases('hourly rollups'));
}

/** Polls the rollup state (1 s) until `done` says so, for 15 minutes at most. */
async function rollupState(server, done) {
  const started = performance.now();
  for (;;) {
    const [state] = await server.sql((query) => query('select rolled_from, rolled_until from viewer_rollup_state'));
    if (done(state)) return;
    if (performance.now() - started > 15 * 60_000)
      throw new Error('the hourly rollups did not get there in 15 minutes');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function measure(rows, engine, cases) {
  for (const [name, call] of cases) {
    const first = await call();
    if ('viewers' in first && !(first.viewers > 0)) throw new Error(`${name}: no viewers`);
    const times = [];
    for (let i = 0; i < REPEAT; i++) {
      const started = performance.now();
      await call();
      times.push(performance.now() - started);
    }
    const p99 = percentile(times, 99);
    rows.push({
      engine,
      measure: `${name} over ${EVENTS.toLocaleString('en')} events`,
      value: 'viewers' in first ? `${first.viewers.toLocaleString('en')} viewers` : `${first.sessions.length} sessions`,
      'p50 ms': Math.round(percentile(times, 50)),
      'p99 ms': Math.round(p99),
      target: `<= ${QUERY_TARGET} ms`,
      met: p99 <= QUERY_TARGET ? 'yes' : 'NO',
    });
    process.stdout.write(`  ${name}: p50 ${percentile(times, 50).toFixed(0)} ms, p99 ${p99.toFixed(0)} ms\n`);
  }
}

export default async function beaconsBench() {
  const rows = [];
  for (const engine of ENGINES) {
    process.stdout.write(`\n${engine}\n`);
    const server = await startApi(engine);
    try {
      await ingest(server, rows, engine);
      await queryTimes(server, rows, engine);
    } finally {
      await server.stop();
    }
  }
  printTable('Viewer beacons: ingest on one API process, analytics over many events', rows);
}
