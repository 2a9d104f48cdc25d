// `npm run bench`: installs what is missing, then runs bench/run.mjs (never part of `npm test`).
import { ensureNodeModules, onSupportedNode, run } from './lib.mjs';

ensureNodeModules();
await onSupportedNode();
// tsx: the media benchmarks use the media node's own TypeScript helpers (its CPU meter).
run(process.execPath, ['--import', 'tsx', 'bench/run.mjs', ...process.argv.slice(2)]);
