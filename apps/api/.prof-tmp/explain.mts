import { startPostgres } from '../../../scripts/lib.mjs';
import { generation } from '../../../bench/usage.bench.mjs';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { UsageRepository } from '../src/modules/statistics/usage.repository.ts';
import { sql } from 'kysely';
const postgres = await startPostgres();
try {
  const database = await openDatabase({ url: postgres.url });
  await migrate(database.db);
  for (const [, text] of generation(200000, 5)) await sql.raw(text).execute(database.db);
  let captured: any;
  const now = Date.now();
  const from = new Date(now - 30 * 86400000), to = new Date(now);
  const db2: any = database.db;
  const origExec = db2.getExecutor().executeQuery.bind(db2.getExecutor());
  db2.getExecutor().executeQuery = async (compiled: any, id: any) => { captured = compiled; return origExec(compiled, id); };
  await new UsageRepository(database.db).usage({ accountId: null }, from, to);
  const plan = await sql.raw('explain analyze ' + captured.sql.replace(/\$(\d+)/g, (_: string, n: string) => { const v = captured.parameters[Number(n) - 1]; return v instanceof Date ? `'${v.toISOString()}'` : `'${v}'`; })).execute(database.db);
  console.log((plan.rows as any[]).map((r) => r['QUERY PLAN']).join('\n'));
  await database.close();
} finally { postgres.stop(); }
