// `npm run chaos [-- --seeds 1,2,3] [--lean]`: installs what is missing, starts a throw-away PostgreSQL, and runs
// the bad day (apps/media-node/test/chaos) once per seed, each on a fresh database, writing each run's report
// (docs/chaos.md says what it does and what it found). `npm test` runs the lean variant once (suite `chaos`).
import { join } from 'node:path';
import { runChaos } from './chaos-run.mjs';
import { ensureMediaTools, ensureNodeModules, log, onSupportedNode, ROOT } from './lib.mjs';

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
await onSupportedNode();
ensureMediaTools();
for (const seed of seeds) {
  log(`Chaos run, seed ${seed}${lean ? ' (lean)' : ''}`);
  await runChaos({ seed, lean, reportPath: join(ROOT, `chaos-report-${seed}.md`) });
}
