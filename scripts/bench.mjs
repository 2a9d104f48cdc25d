// `npm run bench`: installs what is missing, then runs bench/run.mjs (never part of `npm test`).
import { ensureNodeModules, run } from './lib.mjs';

ensureNodeModules();
run(process.execPath, ['bench/run.mjs', ...process.argv.slice(2)]);
