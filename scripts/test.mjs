// `npm test`: installs what is missing, then runs every suite: lint and types, unit, API on PGlite,
// the same API suite on a real PostgreSQL server, the media node, end to end in headless Chromium (one
// spec in Firefox), and the lean chaos run.
// The whole run goes in lanes at once (docs/conventions.md, "How `npm test` runs"): the real-time suites
// (media, then e2e), which mostly wait on ffmpeg, nginx and the browser, at normal priority; the CPU-bound ones
// (lint, unit, API on PGlite, API on PostgreSQL) beside them at a lower priority (nice), so they take only the
// CPU the real-time suites leave idle and never slow what they time; then, once those are done, the media node's
// longest files and the lean chaos run at normal priority (it kills and times processes: starved at nice 19 it would time the starving).
// `npm test -- <suite>[,<suite>…] [args…]` runs only the named suites (lint, unit, api-pglite,
// api-postgres, media, media-late, e2e, chaos), one after the other, passing the args to the suite's runner (vitest or
// playwright), e.g. `npm test -- e2e tests/live.spec.ts` or `npm test -- media -t WHEP`.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runChaos } from './chaos-run.mjs';
import { failureDigest } from './failure-digest.mjs';
import {
  ensureConsoleBuilt,
  ensureDebianPackage,
  ensureMediaTools,
  ensureNodeModules,
  freePort,
  log,
  onSupportedNode,
  ROOT,
  run,
  startPostgres,
  startServer,
} from './lib.mjs';

const E2E_ADMIN = { username: 'admin', password: 'admin-password-1' };
const TYPED_PROJECTS = [
  'packages/contract',
  'packages/s3',
  'packages/net-guard',
  'packages/proc',
  'packages/whip-client',
  'packages/playback-tokens',
  'packages/api-client',
  'apps/api',
  'apps/console',
  'apps/media-node',
  'e2e',
];
const at = (dir) => join(ROOT, dir);
/**
 * The media node's longest files (a node killed and restarted, silences waited out, a token rotation window, a
 * minute of rewind: ~3 min of waiting), and the chaos run's regression tests: their own suite, run after the CPU lane
 * beside e2e, not in the real-time lane before it (whose ~29 min are the run's critical path).
 */
const MEDIA_LATE_FILES = [
  'test/recordings-restart.test.ts',
  'test/node-lifecycle.test.ts',
  'test/token-rotation.test.ts',
  'test/rewind.test.ts',
  'test/whip-session-end.test.ts',
];

const SUITES = {
  lint() {
    log('Lint and types');
    run('npx', ['biome', 'check', '.']);
    for (const project of TYPED_PROJECTS) run('npx', ['tsc', '-p', project, '--noEmit']);
  },
  unit(args) {
    log('Unit tests: contract, S3, net-guard, proc, WHIP client, playback tokens, API client and console');
    run('npx', ['vitest', 'run', ...args], { cwd: at('packages/contract') });
    run('npx', ['vitest', 'run', ...args], { cwd: at('packages/s3') });
    run('npx', ['vitest', 'run', ...args], { cwd: at('packages/net-guard') });
    run('npx', ['vitest', 'run', ...args], { cwd: at('packages/proc') });
    run('npx', ['vitest', 'run', ...args], { cwd: at('packages/whip-client') });
    run('npx', ['vitest', 'run', ...args], { cwd: at('packages/playback-tokens') });
    run('npx', ['vitest', 'run', ...args], { cwd: at('packages/api-client') });
    run('npx', ['vitest', 'run', ...args], { cwd: at('apps/console') });
  },
  'api-pglite'(args) {
    log('API tests on PGlite');
    run('npx', ['vitest', 'run', ...args], { cwd: at('apps/api') });
  },
  async 'api-postgres'(args) {
    log('API tests on PostgreSQL');
    const postgres = await startPostgres();
    try {
      run('npx', ['vitest', 'run', ...args], {
        cwd: at('apps/api'),
        env: { ...process.env, TEST_DATABASE_URL: postgres.url },
      });
    } finally {
      postgres.stop();
    }
  },
  media(args) {
    log('Media node end to end (ffmpeg, nginx-rtmp, werift on loopback)');
    const rest = MEDIA_LATE_FILES.flatMap((file) => ['--exclude', file]);
    run('npx', ['vitest', 'run', ...rest, ...args], { cwd: at('apps/media-node') });
  },
  'media-late'(args) {
    log(`Media node end to end, the long files (${MEDIA_LATE_FILES.join(', ')})`);
    run('npx', ['vitest', 'run', ...MEDIA_LATE_FILES, ...args], { cwd: at('apps/media-node') });
  },
  async e2e(args) {
    log('End-to-end tests in Chromium');
    // In a whole run the CPU lane built it first, off the critical path; alone, e2e builds it afresh.
    ensureConsoleBuilt({ force: !process.env[CONSOLE_BUILT_BY_CPU_LANE] });
    const dataDir = mkdtempSync(join(tmpdir(), 'streamcloud-e2e-'));
    const port = await freePort();
    const server = await startServer({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      // Every spec signs in from 127.0.0.1; the per-address flood limit is not what e2e tests.
      LOGIN_RATE_LIMIT: '10000',
      // A few hundred sign-ins at OWASP's scrypt cost are minutes of the run; what the KDF does is the API suite's.
      PASSWORD_HASH_COST: 'low',
      // The specs' S3 server, media nodes and webhook receivers listen on loopback, as a self-hosted MinIO on a private network would.
      ALLOW_PRIVATE_NETWORKS: 'on',
    });
    try {
      run('npx', ['playwright', 'test', ...args], {
        cwd: at('e2e'),
        env: {
          ...process.env,
          E2E_BASE_URL: server.url,
          E2E_ADMIN_USERNAME: E2E_ADMIN.username,
          E2E_ADMIN_PASSWORD: E2E_ADMIN.password,
        },
      });
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
  async chaos() {
    // Every fault once and the node dying with PostgreSQL, 5 s outages (docs/chaos.md); CHAOS_SEED picks the order.
    const seed = Number(process.env.CHAOS_SEED ?? 1);
    log(`Chaos run, lean, seed ${seed} (npm run chaos for the full run)`);
    const dir = mkdtempSync(join(tmpdir(), 'streamcloud-chaos-'));
    try {
      await runChaos({ seed, lean: true, reportPath: join(dir, 'report.md') });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

/** Set in a whole run's lanes: the CPU lane builds the console for e2e before its suites. */
const BUILD_CONSOLE_FIRST = 'STREAMCLOUD_BUILD_CONSOLE_FIRST';
const CONSOLE_BUILT_BY_CPU_LANE = 'STREAMCLOUD_CONSOLE_BUILT_BY_CPU_LANE';

/** The lanes of a whole run: they share no port, directory or database. */
const REALTIME_LANE = ['media', 'e2e'];
const CPU_LANE = ['lint', 'unit', 'api-pglite', 'api-postgres'];
/**
 * After the CPU lane (~18 min), beside what is left of the real-time lane (e2e): the media node's long files, then
 * the lean chaos run (~6 min in all). Both at normal priority: they time processes, which at nice 19 would time
 * the starving.
 */
const AFTER_CPU_LANE = ['media-late', 'chaos'];
/** How much lower the CPU lane runs: the lowest priority, about 1.5 % of a core the real-time lane wants. */
const CPU_LANE_NICENESS = '19';

async function runSuites(names, args) {
  for (const name of names) {
    const started = Date.now();
    await SUITES[name](args);
    log(`${name} passed in ${minutes(Date.now() - started)}`);
  }
}

const minutes = (ms) => `${(ms / 60_000).toFixed(1)} min`;

/** The most of a printed lane's output kept for its failure digest (its end: what failed last). */
const KEPT_OUTPUT_CHARS = 8_000_000;

/**
 * A lane: this script again for its suites, in a process of its own so the lanes run at once. `niceness` lowers
 * its priority; `captured` keeps its output in a file, printed once the real-time lane is done (interleaved with
 * that lane's it could not be read); otherwise it is printed as it comes and kept (its end) for the digest.
 * Resolves with whether it passed and its output.
 */
function startLane(suites, { niceness = null, captured = true, env = {} } = {}) {
  const dir = captured ? mkdtempSync(join(tmpdir(), 'streamcloud-test-')) : null;
  const path = dir ? join(dir, 'lane.log') : null;
  const out = path ? openSync(path, 'w') : 'pipe';
  const command = [process.execPath, fileURLToPath(import.meta.url), suites.join(',')];
  const options = { cwd: ROOT, stdio: ['ignore', out, out], env: { ...process.env, ...env } };
  const child = niceness
    ? spawn('nice', ['-n', niceness, ...command], options)
    : spawn(command[0], command.slice(1), options);
  if (typeof out === 'number') closeSync(out);
  let printed = '';
  const keep = (chunk) => {
    printed = (printed + chunk.toString()).slice(-KEPT_OUTPUT_CHARS);
  };
  child.stdout?.on('data', (chunk) => {
    process.stdout.write(chunk);
    keep(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    process.stderr.write(chunk);
    keep(chunk);
  });
  return new Promise((resolve) => {
    let settled = false;
    const done = (passed, note = '') => {
      if (settled) return;
      settled = true;
      const output = (path ? readFileSync(path, 'utf8') : printed) + note;
      if (dir) rmSync(dir, { recursive: true, force: true });
      resolve({ suites, passed, output, captured });
    };
    child.once('error', (error) => done(false, `\n${error.message}\n`));
    // 'close': the lane's output is all read, not only the process ended.
    child.once('close', (code) => done(code === 0));
  });
}

async function main() {
  const [selection, ...args] = process.argv.slice(2);
  const names = selection ? selection.split(',') : Object.keys(SUITES);
  const unknown = names.filter((name) => !(name in SUITES));
  if (unknown.length > 0)
    throw new Error(`Unknown suite ${unknown.join(', ')}: pick from ${Object.keys(SUITES).join(', ')}`);
  ensureNodeModules();
  await onSupportedNode();
  if (names.includes('e2e')) {
    ensureDebianPackage('/usr/bin/chromium', 'chromium');
    // The studio and preview spec in Firefox (tests/firefox.spec.ts, driven by puppeteer-core over WebDriver BiDi).
    ensureDebianPackage('/usr/bin/firefox-esr', 'firefox-esr');
  }
  if (names.some((name) => ['media', 'media-late', 'e2e', 'chaos'].includes(name))) ensureMediaTools();
  if (selection) {
    if (process.env[BUILD_CONSOLE_FIRST]) ensureConsoleBuilt({ force: true });
    await runSuites(names, args);
    log(`Suites passed: ${names.join(', ')}`);
    return;
  }
  const started = Date.now();
  log(
    `Running ${CPU_LANE.join(', ')}, then ${AFTER_CPU_LANE.join(', ')}, beside ${REALTIME_LANE.join(', ')} (their output follows theirs)`,
  );
  // The console's build (about a minute of CPU) goes first in the CPU lane, long before e2e needs it.
  const others = startLane(CPU_LANE, { niceness: CPU_LANE_NICENESS, env: { [BUILD_CONSOLE_FIRST]: '1' } }).then(
    async (cpu) => [cpu, await startLane(AFTER_CPU_LANE)],
  );
  const realtime = await startLane(REALTIME_LANE, { captured: false, env: { [CONSOLE_BUILT_BY_CPU_LANE]: '1' } });
  const lanes = [realtime, ...(await others)];
  for (const lane of lanes) if (lane.captured) process.stdout.write(lane.output);
  const failed = lanes.filter((lane) => !lane.passed);
  // Last, what failed in each failed lane: the end of the output is what a CI page shows.
  for (const lane of failed) {
    log(`What failed in ${lane.suites.join(', ')} (a digest; the whole output is above)`);
    process.stdout.write(`${failureDigest(lane.output)}\n`);
  }
  if (failed.length > 0) throw new Error(failed.map((lane) => `${lane.suites.join(', ')} failed`).join('\n'));
  log(`All suites passed in ${minutes(Date.now() - started)}`);
}

main().catch((error) => {
  process.stderr.write(`\n${error.message}\n`);
  process.exit(1);
});
