import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirInUseError, restrictDataDir } from './db/data-dir.js';
import { openDatabase } from './db/database.js';
import { migrate } from './db/migrate.js';
import { createOutbound } from './lib/outbound.js';
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
/** autovacuum's own pace (autovacuum_naptime), for PGlite, which has none. */
const PGLITE_VACUUM_INTERVAL_MS = 60 * 1000;
/** How often webhook deliveries past the log's retention are dropped. */
const WEBHOOK_RETENTION_INTERVAL_MS = 60 * 60 * 1000;
const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../../console/dist', import.meta.url));

async function main(): Promise<void> {
  const config = loadConfig();
  const scaling = loadScalingConfig(process.env, { port: config.port });
  const outbound = createOutbound({ allowPrivateNetworks: config.allowPrivateNetworks });
  await restrictDataDir(config.dataDir, { recursive: false });
  const database = await openDatabase(
    config.databaseUrl ? { url: config.databaseUrl } : { dataDir: join(config.dataDir, 'pglite') },
  );
  await migrate(database.db);
  const secret = config.jwtSecret ?? (await persistentSecret(config.dataDir, 'jwt-secret'));
  const storageEncryptionKey =
    config.storageEncryptionKey ?? (await persistentEncryptionKey(config.dataDir, 'storage-encryption-key'));
  const app = await buildApp({
    database,
    secret,
    storageEncryptionKey,
    outbound,
    logger: { level: config.logLevel },
    consoleDir: config.consoleDir ?? DEFAULT_CONSOLE_DIR,
    storagePrefix: process.env.CONSOLE_STORAGE_PREFIX ?? '',
    gslbHostname: config.gslbHostname,
    loginFloodLimit: { max: config.loginRateLimit, timeWindow: '1 minute' },
    streamAssignIntervalMs: STREAM_ASSIGN_INTERVAL_MS,
    nodeSilenceMs: config.nodeSilenceSeconds * 1000,
    statistics: { ...config.statistics, retentionIntervalMs: METRICS_RETENTION_INTERVAL_MS },
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

  const admin = await app.services.accounts.ensureAdmin(config.adminUsername, config.adminPassword);

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
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const shownHost = config.host === '127.0.0.1' || config.host === '0.0.0.0' ? 'localhost' : config.host;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const lines = [
    '',
    `Streamcloud is running on http://${shownHost}:${port}/ (database: ${database.engine})`,
    `Sign in at http://${shownHost}:${port}/#/login`,
  ];
  lines.push(...adminLines(admin));
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
