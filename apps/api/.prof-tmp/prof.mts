import { startPostgres } from '../../../scripts/lib.mjs';
import { generation } from '../../../bench/usage.bench.mjs';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { buildApp } from '../src/app.ts';
import { UsageRepository } from '../src/modules/statistics/usage.repository.ts';
import { StatisticsResponse, statisticsRoutes } from '@streamcloud/contract';
import { sql } from 'kysely';

const postgres = await startPostgres();
try {
  const database = await openDatabase({ url: postgres.url });
  await migrate(database.db);
  for (const [label, text] of generation(200000, 5)) await sql.raw(text).execute(database.db);
  const app = await buildApp({ database, secret: 'x'.repeat(40), scryptCost: { N: 1024, r: 8, p: 1 } });
  await app.ready();
  await app.services.accounts.create(null, { username: 'root', password: 'password-1', role: 'ADMIN' });
  const token = (await app.inject({ method: 'POST', url: '/api/v1/login', payload: { username: 'root', password: 'password-1' } })).json().token;
  const now = Date.now();
  const from = new Date(now - 30 * 86400000), to = new Date(now);
  const url = `/api/v1/statistics/stream/from/${from.toISOString()}/to/${to.toISOString()}`;
  const time = async (label: string, fn: () => Promise<unknown>) => { const ts: number[] = []; let r; for (let i = 0; i < 8; i++) { const t = performance.now(); r = await fn(); ts.push(performance.now() - t); } ts.sort((a,b)=>a-b); console.log(label, ts.map(Math.round).join(' ')); return r; };
  const rows = await time('sql', () => new UsageRepository(database.db).usage({ accountId: null }, from, to)) as any[];
  const body = { streams: rows, concurrentSessions: 1 };
  await time('zod union', async () => statisticsRoutes.usage.response.parse(body));
  await time('zod', async () => StatisticsResponse.parse(body));
  await time('stringify', async () => JSON.stringify(body));
  await time('inject', () => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } }));
  const compiled = (new UsageRepository(database.db) as any);
  const q = sql.raw(`explain (analyze, buffers off) ` + '');
  console.log('bytes', JSON.stringify(body).length, 'streams', rows.length);
  await app.close(); await database.close();
} finally { postgres.stop(); }
