// `npm run chaos [-- --seeds 1,2,3] [--lean]`: installs what is missing, starts a throw-away PostgreSQL, and runs
// the bad day (apps/media-node/test/chaos) once per seed, each on a fresh database, writing each run's report
// (docs/chaos.md says what it does and what it found). Never part of `npm test`.
import { join } from 'node:path';
import { ensureMediaTools, ensureNodeModules, log, ROOT, run, startPostgres } from './lib.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? fallback : args[index + 1];
};
const seeds = String(option('seeds', '1,2,3'))
  .split(',')
  .map((seed) => Number(seed.trim()))
  .filter((seed) => Number.isInteger(seed));
const lean = args.includes('--lean');

ensureNodeModules();
ensureMediaTools();
for (const seed of seeds) {
  log(`Chaos run, seed ${seed}${lean ? ' (lean)' : ''}`);
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
        CHAOS_REPORT: join(ROOT, `chaos-report-${seed}.md`),
      },
    });
  } finally {
    postgres.stop();
  }
}
