import { startPostgres } from '../../../scripts/lib.mjs';
import { generation } from '../../../bench/usage.bench.mjs';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { sql } from 'kysely';
const postgres = await startPostgres();
try {
  const database = await openDatabase({ url: postgres.url });
  await migrate(database.db);
  for (const [, text] of generation(200000, 5)) await sql.raw(text).execute(database.db);
  const now = Date.now();
  const from = new Date(now - 30 * 86400000).toISOString(), to = new Date(now).toISOString();
  const base = `with u as (select h.stream_id, h.node_id, h.kind, h.session_id, min(h.started_at) as started_at, max(h.ended_at) as ended_at, sum(h.duration) as duration, sum(h.upload) as upload, sum(h.download) as download from usage_hourly h where h.hour >= date_trunc('hour', '${from}'::timestamptz, 'UTC') and h.hour <= '${to}'::timestamptz group by 1,2,3,4), d as (select u.*, coalesce(n.name, un.name, u.node_id::text) as node_name from u left join nodes n on n.id = u.node_id left join usage_nodes un on un.node_id = u.node_id)`;
  const agg = (ts: (c: string) => string) => `${base} select s.stream_id, coalesce(i.caption, s.caption) caption, s.account_id, s.protocol, s.processing, coalesce(sum(d.duration) filter (where d.kind='incoming'),0) duration,
   coalesce(json_agg(json_build_object('sessionId', d.session_id, 'nodeId', d.node_id, 'node', d.node_name, 'started', ${ts('d.started_at')}, 'ended', ${ts('d.ended_at')}, 'duration', d.duration, 'upload', d.upload, 'download', d.download) order by d.started_at, d.node_id, d.session_id) filter (where d.kind='incoming'), '[]') incoming,
   coalesce(json_agg(json_build_object('nodeId', d.node_id, 'node', d.node_name, 'duration', d.duration, 'upload', d.upload, 'download', d.download) order by d.node_name, d.node_id) filter (where d.kind='internode'), '[]') internode,
   coalesce(json_agg(json_build_object('nodeId', d.node_id, 'node', d.node_name, 'duration', d.duration, 'upload', d.upload, 'download', d.download) order by d.node_name, d.node_id) filter (where d.kind='outgoing'), '[]') outgoing
   from d join usage_streams s on s.stream_id = d.stream_id left join inputs i on i.id = d.stream_id group by s.stream_id, i.caption, s.caption, s.account_id, s.protocol, s.processing order by s.stream_id`;
  const variants: Record<string, string> = {
    tochar: agg((c) => `to_char(${c} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`),
    raw: agg((c) => c),
    epoch: agg((c) => `(extract(epoch from ${c}) * 1000)::bigint`),
    flat: `${base} select d.*, s.account_id, s.protocol, s.processing, coalesce(i.caption, s.caption) caption from d join usage_streams s on s.stream_id = d.stream_id left join inputs i on i.id = d.stream_id order by d.stream_id, d.kind, d.started_at`,
  };
  for (const [name, text] of Object.entries(variants)) {
    const ts: number[] = [];
    for (let i = 0; i < 6; i++) { const t = performance.now(); await sql.raw(text).execute(database.db); ts.push(performance.now() - t); }
    ts.sort((a, b) => a - b); console.log(name, ts.map(Math.round).join(' '));
  }
  const sample = await sql.raw(variants.raw).execute(database.db);
  console.log(JSON.stringify((sample.rows[0] as any).incoming));
  await database.close();
} finally { postgres.stop(); }
