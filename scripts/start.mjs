// `npm start`: installs what is missing, builds the console when its sources changed, and runs the
// console and API on http://localhost:8080 (PGlite under ./data unless DATABASE_URL is set).
import { spawn } from 'node:child_process';
import { ensureConsoleBuilt, ensureNodeModules, ROOT } from './lib.mjs';

ensureNodeModules();
ensureConsoleBuilt();

const server = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], { cwd: ROOT, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
