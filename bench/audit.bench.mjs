// Issue 23: the audit page's first page over 1,000,000 audit entries on PostgreSQL, unfiltered and with each
// filter the page offers (account, resource type, action, time range), plus a page deep in the log reached
// by its cursor. The entries are bulk-inserted with generate_series: 50 accounts, 8 resource types, spread
// over the last 365 days. Over HTTP as the admin, p50 and p99 of repeated requests. Goal: first page ≤ 50 ms.
//
// Environment: BENCH_AUDIT_ENTRIES (1000000), BENCH_AUDIT_REPEAT (50).
import { auditRoutes } from '@streamcloud/contract';
import { printTable, startApi } from './lib.mjs';

const ENTRIES = Number(process.env.BENCH_AUDIT_ENTRIES ?? 1_000_000);
const REPEAT = Number(process.env.BENCH_AUDIT_REPEAT ?? 50);
const WARMUP = 5;
const TARGET_MS = 50;
const ACCOUNTS = 50;
const TYPES = ['input', 'output', 'fallback', 'recording', 'relay', 'storage', 'node', 'account'];

const uuidOf = (kind, index) =>
  `overlay(overlay(md5('${kind}-' || ${index}) placing '4' from 13) placing '8' from 17)::uuid`;

async function generate(api) {
  await api.sql(async (query) => {
    await query(`insert into accounts (id, username, role, password_hash)
      select ${uuidOf('account', 'a')}, 'bench-user-' || a, 'USER', 'scrypt$1$1$1$x$x'
      from generate_series(0, ${ACCOUNTS - 1}) a`);
    await query(`insert into audit_log (at, actor_id, acting_admin_id, action, target_type, target_id, details,
                                        source_address, result)
      select now() - interval '365 days' + g * (interval '365 days' / ${ENTRIES}),
             ${uuidOf('account', `g % ${ACCOUNTS}`)},
             case when g % 97 = 0 then ${uuidOf('account', `(g + 1) % ${ACCOUNTS}`)} end,
             (array[${TYPES.map((type) => `'${type}'`).join(',')}])[g % ${TYPES.length} + 1]
               || case when g % 3 = 0 then '.create' when g % 3 = 1 then '.update' else '.delete' end,
             (array[${TYPES.map((type) => `'${type}'`).join(',')}])[g % ${TYPES.length} + 1],
             ${uuidOf('target', 'g % 10000')}::text,
             jsonb_build_object('n', g),
             '198.51.100.' || (g % 250),
             case when g % 50 = 0 then 'failure' else 'success' end
      from generate_series(1, ${ENTRIES}) g`);
    await query('analyze audit_log');
  });
}

async function time(client, query) {
  const samples = [];
  let answer;
  for (let index = 0; index < WARMUP + REPEAT; index++) {
    const started = performance.now();
    answer = await client.call(auditRoutes.list, { query });
    if (index >= WARMUP) samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return {
    items: answer.items.length,
    p50: samples[Math.floor(samples.length / 2)],
    p99: samples[Math.min(samples.length - 1, Math.floor(samples.length * 0.99))],
    answer,
  };
}

export default async function auditBench() {
  const api = await startApi('postgres');
  try {
    const generating = performance.now();
    await generate(api);
    const seconds = ((performance.now() - generating) / 1000).toFixed(1);
    process.stdout.write(`${ENTRIES.toLocaleString('en')} audit entries generated in ${seconds} s\n`);
    const client = api.client(await api.login());
    const account = (await api.sql((query) => query(`select ${uuidOf('account', 8)} as id`)))[0].id;
    const month = new Date(Date.now() - 200 * 86_400_000);
    const cases = [
      ['first page, no filter', {}],
      ['first page, one account', { account }],
      ['first page, resource type', { resourceType: 'relay' }],
      ['first page, action', { action: 'storage.delete' }],
      [
        'first page, a 30-day range',
        { from: month.toISOString(), to: new Date(month.getTime() + 30 * 86_400_000).toISOString() },
      ],
      ['first page, account + type + range', { account, resourceType: 'input', from: month.toISOString() }],
    ];
    const rows = [];
    let deepCursor = null;
    for (const [name, query] of cases) {
      const result = await time(client, { ...query, limit: 50 });
      if (!deepCursor) deepCursor = result.answer.nextCursor;
      rows.push({
        case: name,
        entries: result.items,
        'p50 ms': result.p50.toFixed(1),
        'p99 ms': result.p99.toFixed(1),
      });
    }
    // 200 pages of 200 in: as fast as the first (keyset, never OFFSET).
    let cursor = deepCursor;
    for (let page = 0; page < 200 && cursor; page++) {
      cursor = (await client.call(auditRoutes.list, { query: { limit: 200, cursor } })).nextCursor;
    }
    const deep = await time(client, { limit: 50, cursor });
    rows.push({
      case: 'page 40,000 entries deep',
      entries: deep.items,
      'p50 ms': deep.p50.toFixed(1),
      'p99 ms': deep.p99.toFixed(1),
    });
    printTable(
      `GET /audit over ${ENTRIES.toLocaleString('en')} entries on PostgreSQL (goal: p50 and p99 ≤ ${TARGET_MS} ms)`,
      rows,
    );
    const slow = rows.filter((row) => Number(row['p50 ms']) > TARGET_MS || Number(row['p99 ms']) > TARGET_MS);
    if (slow.length > 0) process.stdout.write(`ABOVE GOAL: ${slow.map((row) => row.case).join(', ')}\n`);
  } finally {
    await api.stop();
  }
}
