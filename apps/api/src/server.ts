import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { buildApp } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { DataDirInUseError, restrictDataDir } from './db/data-dir.js';
import { openDatabase } from './db/database.js';
import { migrate } from './db/migrate.js';
import { createOutbound } from './lib/outbound.js';
import { OWASP_SCRYPT } from './lib/password.js';
import { persistentEncryptionKey } from './lib/secret-box.js';
import { persistentSecret } from './lib/secrets.js';
import { startLocalMediaNode } from './local-media-node.js';
import type { AdminRecovery } from './modules/accounts/accounts.service.js';
import { loadScalingConfig } from './modules/node-groups/providers/config.js';
import { createScalingProviders } from './modules/node-groups/providers/index.js';

/** How often inputs that wait for a node are assigned to one that became available. */
const STREAM_ASSIGN_INTERVAL_MS = 5000;
/** How often expired metric samples are dropped. */
const METRICS_RETENTION_INTERVAL_MS = 10 * 60 * 1000;
/** How often the streams' quality rules are judged (their windows are minutes long). */
const QUALITY_CHECK_INTERVAL_MS = 30 * 1000;
/**
 * How often the viewer analytics' hourly rollups are brought up to date: an hour a run once caught up; a new
 * database's backlog (a week a run) in a few minutes.
 */
const VIEWER_ROLLUP_INTERVAL_MS = 15 * 1000;
/** autovacuum's own pace (autovacuum_naptime), for PGlite, which has none. */
const PGLITE_VACUUM_INTERVAL_MS = 60 * 1000;
/** How often webhook deliveries past the log's retention are dropped. */
const WEBHOOK_RETENTION_INTERVAL_MS = 60 * 60 * 1000;
const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../../console/dist', import.meta.url));

/** Which of the API processes this is: the first (0) creates the admin, prints the start and runs the local node. */
const WORKER_INDEX = Number(process.env.STREAMCLOUD_WORKER_INDEX ?? 0);

async function main(): Promise<void> {
  const config = loadConfig();
  const workers = config.databaseUrl ? (config.apiWorkers ?? availableParallelism()) : 1;
  if (workers > 1 && cluster.isPrimary) return runWorkers(config, workers);
  const scaling = loadScalingConfig(process.env, { port: config.port });
  const outbound = createOutbound({ allowPrivateNetworks: config.allowPrivateNetworks });
  await restrictDataDir(config.dataDir, { recursive: false });
  const database = await openDatabase(
    config.databaseUrl ? { url: config.databaseUrl } : { dataDir: join(config.dataDir, 'pglite') },
  );
  await migrate(database.db);
  const { secret, storageEncryptionKey } = await secretsOf(config);
  // Log lines are written to stdout asynchronously: a blocking write per line was a tenth of a request's time.
  const logs = pino.destination({ dest: 1, sync: false });
  const app = await buildApp({
    database,
    secret,
    storageEncryptionKey,
    outbound,
    logger: { level: config.logLevel, stream: logs },
    consoleDir: config.consoleDir ?? DEFAULT_CONSOLE_DIR,
    storagePrefix: process.env.CONSOLE_STORAGE_PREFIX ?? '',
    gslbHostname: config.gslbHostname,
    gslbUrl: config.gslbUrl,
    loginFloodLimit: { max: config.loginRateLimit, timeWindow: '1 minute' },
    scryptCost: config.scryptCost,
    keyRateLimit: config.keyRateLimit,
    streamAssignIntervalMs: STREAM_ASSIGN_INTERVAL_MS,
    nodeSilenceMs: config.nodeSilenceSeconds * 1000,
    statistics: { ...config.statistics, retentionIntervalMs: METRICS_RETENTION_INTERVAL_MS },
    analytics: {
      ...config.analytics,
      retentionIntervalMs: METRICS_RETENTION_INTERVAL_MS,
      qualityCheckIntervalMs: QUALITY_CHECK_INTERVAL_MS,
      rollupIntervalMs: VIEWER_ROLLUP_INTERVAL_MS,
    },
    vacuumIntervalMs: PGLITE_VACUUM_INTERVAL_MS,
    webhooks: {
      dispatch: true,
      allowPrivateNetworks: config.callbackAllowPrivateNetworks,
      retentionIntervalMs: WEBHOOK_RETENTION_INTERVAL_MS,
    },
    scaling: {
      autoscale: scaling.enabled,
      autoscaler: {
        intervalMs: scaling.intervalSeconds * 1000,
        sampleMaxAgeMs: scaling.sampleMaxAgeSeconds * 1000,
        eventRetentionMs: scaling.eventRetentionDays * 24 * 3600_000,
      },
      providers: createScalingProviders(scaling, { fetch: outbound.operator.fetch }),
    },
  });

  const first = WORKER_INDEX === 0;
  const admin = first ? await app.services.accounts.ensureAdmin(config.adminUsername, config.adminPassword) : null;

  let closing = false;
  let localNode: { stop(): Promise<void> } | null = null;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'closing: in-flight requests finish, new ones get 503');
    await localNode?.stop();
    await app.close();
    await app.requestsDrained(10_000);
    await database.close();
    logs.flushSync();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  if (!first) return;
  const shownHost = config.host === '127.0.0.1' || config.host === '0.0.0.0' ? 'localhost' : config.host;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const lines = [
    '',
    `Streamcloud is running on http://${shownHost}:${port}/ (database: ${database.engine})`,
    `Sign in at http://${shownHost}:${port}/#/login`,
  ];
  lines.push(...adminLines(admin));
  if (config.scryptCost.N < OWASP_SCRYPT.N)
    lines.push('Passwords are hashed at the low cost PASSWORD_HASH_COST=low sets: for a server that runs tests only');
  if (config.localMediaNode.enabled) {
    const say = (line: string) => process.stdout.write(`${line}\n`);
    localNode = await startLocalMediaNode({
      nodes: app.services.nodes,
      controlPlaneUrl: `http://${config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host}:${port}`,
      hostname: config.localMediaNode.hostname,
      port: config.localMediaNode.port,
      // Recordings the node has not uploaded yet survive its restarts (and the server's).
      recordingsDir: join(config.dataDir, 'recordings'),
      say,
    }).catch((error: unknown) => {
      say(`The local media node could not be started: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    });
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

/** The root secret and the storage key: from the environment, or kept in files under DATA_DIR (made once). */
async function secretsOf(config: Config) {
  return {
    secret: config.jwtSecret ?? (await persistentSecret(config.dataDir, 'jwt-secret')),
    storageEncryptionKey:
      config.storageEncryptionKey ?? (await persistentEncryptionKey(config.dataDir, 'storage-encryption-key')),
  };
}

/**
 * The primary of API_WORKERS processes (node:cluster, one port): it migrates and makes the secret files
 * once, then forks the workers, each a whole API (server.ts again); one that ends unasked is started again
 * in its place. SIGTERM/SIGINT are passed on, and it ends when they all have. Which worker runs the periodic
 * jobs is decided by the database (app.ts, the leader), not here: it holds across servers too.
 */
async function runWorkers(config: Config, count: number): Promise<void> {
  await restrictDataDir(config.dataDir, { recursive: false });
  const database = await openDatabase({ url: config.databaseUrl as string });
  await migrate(database.db);
  await database.close();
  await secretsOf(config);
  let closing = false;
  let running = 0;
  const fork = (index: number) => {
    const worker = cluster.fork({ STREAMCLOUD_WORKER_INDEX: String(index) });
    running++;
    worker.on('exit', (code, signal) => {
      running--;
      if (closing) {
        if (running === 0) process.exit(0);
        return;
      }
      process.stderr.write(`API worker ${index} ended (${signal ?? code}); starting it again\n`);
      fork(index);
    });
  };
  // The others only once the first listens: by then it has created or restored the admin, so no worker
  // answers (/readyz, a sign-in) before the admin exists.
  cluster.once('listening', () => {
    for (let index = 1; index < count; index++) fork(index);
  });
  fork(0);
  const stop = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** What the start says about the admin account it created or restored, if any. */
function adminLines(admin: AdminRecovery | null): string[] {
  if (!admin) return [];
  if (admin.action === 'none-left') {
    return [
      'No account has the ADMIN role any more: to restore one, restart with ADMIN_USERNAME and ADMIN_PASSWORD set',
      '(an existing account of that name is promoted and its password replaced; otherwise the account is created).',
    ];
  }
  const what = {
    'created-first': 'First admin created',
    created: 'No admin was left: admin created',
    promoted: 'No admin was left: promoted to admin',
  }[admin.action];
  if (!admin.generatedPassword) return [`${what} from ADMIN_USERNAME: "${admin.username}"`];
  return [
    `${what}: username "${admin.username}", password "${admin.generatedPassword}"`,
    'This password is shown only once: sign in and keep it safe.',
  ];
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirInUseError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`Streamcloud failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
