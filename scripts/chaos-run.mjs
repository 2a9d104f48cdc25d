// One chaos scenario (apps/media-node/test/chaos): a throw-away durable PostgreSQL, the bad day with the given
// seed on it, its report written to `reportPath`. Shared by `npm run chaos` and `npm test`'s lean run.
import { join } from 'node:path';
import { ensureConsoleBuilt, ROOT, run, startPostgres } from './lib.mjs';

export async function runChaos({ seed, lean, reportPath }) {
  // The run watches the console in Chromium (console-watch.ts): built unless its build is newer than its sources.
  ensureConsoleBuilt();
  // Durable: with commits acknowledged before they are on disk (the tests' setting), a kill -9 loses some.
  const postgres = await startPostgres({ durable: true });
  try {
    run('npx', ['vitest', 'run', '--config', 'vitest.chaos.config.ts'], {
      cwd: join(ROOT, 'apps/media-node'),
      env: {
        ...process.env,
        CHAOS_SEED: String(seed),
        CHAOS_LEAN: lean ? '1' : '',
        CHAOS_DATABASE_URL: postgres.url,
        CHAOS_PG_DATA: postgres.dataDir,
        CHAOS_PG_START: JSON.stringify(postgres.startCommand),
        CHAOS_REPORT: reportPath,
      },
    });
  } finally {
    postgres.stop();
  }
}
