import rateLimit from '@fastify/rate-limit';
import { API_BASE } from '@streamcloud/contract';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { DatabaseHandle, Leadership } from './db/database.js';
import { keepListening } from './db/invalidation-listener.js';
import { RESPONSE_INVALIDATION_CHANNEL, ResponseCache } from './db/response-cache.js';
import { tableWritesPlugin } from './db/table-writes.js';
import { UnitOfWork } from './db/unit-of-work.js';
import { vacuumWhereDue } from './db/vacuum.js';
import { type Clock, systemClock } from './lib/clock.js';
import { HashingGate } from './lib/hashing-gate.js';
import { DEFAULT_OUTBOUND, type Outbound } from './lib/outbound.js';
import { OWASP_SCRYPT, type ScryptCost } from './lib/password.js';
import { registerPeriodicJob } from './lib/periodic.js';
import { compiledSerializerCompiler } from './lib/response-serializer.js';
import { SecretBox } from './lib/secret-box.js';
import { deriveKey } from './lib/secrets.js';
import { accountsModule } from './modules/accounts/accounts.module.js';
import type { AccountsService } from './modules/accounts/accounts.service.js';
import { auditModule } from './modules/audit/audit.module.js';
import type { AuditService } from './modules/audit/audit.service.js';
import type { ApiKeysService } from './modules/auth/api-keys.service.js';
import { authModule } from './modules/auth/auth.module.js';
import type { AuthService, LoginThrottle } from './modules/auth/auth.service.js';
import { SessionCache } from './modules/auth/session-cache.js';
import type { TwoFactorService } from './modules/auth/two-factor.service.js';
import { fallbacksModule } from './modules/fallbacks/fallbacks.module.js';
import type { FallbacksService } from './modules/fallbacks/fallbacks.service.js';
import { healthModule } from './modules/health/health.module.js';
import type { ModuleContext } from './modules/module.js';
import {
  type NodeGroupsParts,
  nodeGroupsModule,
  type ScalingOptions,
} from './modules/node-groups/node-groups.module.js';
import type { NodeGroupsService } from './modules/node-groups/node-groups.service.js';
import { NodeOrigins } from './modules/nodes/node-origins.js';
import type { NodeReportsService } from './modules/nodes/node-reports.service.js';
import { nodesModule } from './modules/nodes/nodes.module.js';
import type { NodesService } from './modules/nodes/nodes.service.js';
import { playModule } from './modules/play/play.module.js';
import { playbackKeysModule } from './modules/playback-keys/playback-keys.module.js';
import { recordingsModule } from './modules/recordings/recordings.module.js';
import type { RecordingsService } from './modules/recordings/recordings.service.js';
import { relaysModule } from './modules/relays/relays.module.js';
import type { RelaysService } from './modules/relays/relays.service.js';
import { snapshotsModule } from './modules/snapshots/snapshots.module.js';
import type { SnapshotsService } from './modules/snapshots/snapshots.service.js';
import { type StatisticsOptions, statisticsModule } from './modules/statistics/statistics.module.js';
import type { StatisticsService } from './modules/statistics/statistics.service.js';
import type { StorageUsage } from './modules/storages/storage-usage.js';
import { storagesModule } from './modules/storages/storages.module.js';
import type { StoragesService } from './modules/storages/storages.service.js';
import type { OutputsService } from './modules/streams/outputs.service.js';
import { streamsModule } from './modules/streams/streams.module.js';
import type { StreamsService } from './modules/streams/streams.service.js';
import { transcodeModule } from './modules/transcode/transcode.module.js';
import type { TranscodeService } from './modules/transcode/transcode.service.js';
import { webhooksOpenApi } from './modules/webhooks/openapi.js';
import { type WebhookOptions, type WebhooksModule, webhooksModule } from './modules/webhooks/webhooks.module.js';
import { registerAuthGuard } from './plugins/auth-guard.js';
import { registerConsole } from './plugins/console-static.js';
import {
  clientErrorHandler,
  frameworkErrors,
  MAX_PARAM_LENGTH,
  registerErrorHandler,
} from './plugins/error-handler.js';
import { registerOpenApi } from './plugins/openapi.js';
import { OneLinePerRequest } from './plugins/request-log.js';
import { registerSecurity } from './plugins/security.js';
import { registerShutdownGate } from './plugins/shutdown-gate.js';

/** The advisory lock the leading API process holds (db/database.ts `campaign`). */
export const LEADER_LOCK_KEY = 7_405_222;

export interface AppOptions {
  database: DatabaseHandle;
  /** Root secret; the token-signing and anti-forgery keys are derived from it. */
  secret: string;
  logger?: FastifyServerOptions['logger'];
  clock?: Clock;
  scryptCost?: ScryptCost;
  /** Bounds the password hashing done at once (lib/hashing-gate.ts); the default limits otherwise. */
  hashing?: HashingGate;
  loginThrottle?: LoginThrottle;
  /** Login requests per address and window, failed or not. */
  loginFloodLimit?: { max: number; timeWindow: string };
  /** Requests per API key and minute (KEY_RATE_LIMIT; 600 by default). */
  keyRateLimit?: number;
  consoleDir?: string;
  storagePrefix?: string;
  /** Timeout of the control plane's calls to a node's control API (3 s by default). */
  nodeControlTimeoutMs?: number;
  /** Node groups' autoscaler and providers; the loop runs only with `scaling.autoscale`. */
  scaling?: ScalingOptions;
  /** 32-byte key sealing storage secrets (server.ts: STORAGE_ENCRYPTION_KEY or a key file under DATA_DIR); derived from `secret` when absent. */
  storageEncryptionKey?: Buffer;
  /** The guards of outbound connections; users' destinations public only, the operator's private too, by default. */
  outbound?: Outbound;
  /** Timeout of each S3 call of a storage connection check (5 s by default). */
  storageCheckTimeoutMs?: number;
  /** Whether recordings use a storage; the recordings module's count by default. */
  storageUsage?: StorageUsage;
  /** Host of the global load-balancing ingest endpoints ('localhost' by default). */
  gslbHostname?: string;
  /** Where WHIP at GSLB names is answered: the control plane as publishers reach it ('http://localhost:8080' by default). */
  gslbUrl?: string;
  /**
   * How often inputs waiting for a node are assigned, and inputs of silent nodes leave Ingestion;
   * the loop runs only when set (server.ts).
   */
  streamAssignIntervalMs?: number;
  /** A node with no report for this long has its Ingestion inputs set to Error (15 s by default). */
  nodeSilenceMs?: number;
  /** Usage and metrics: Prometheus, the scrape token, retention (modules/statistics). */
  statistics?: StatisticsOptions;
  /** How often PGlite's tables past autovacuum's thresholds are vacuumed (db/vacuum.ts); only when set. */
  vacuumIntervalMs?: number;
  /** The dispatcher (runs only with `webhooks.dispatch`), its address policy and timings (modules/webhooks). */
  webhooks?: WebhookOptions;
}

export interface AppServices {
  accounts: AccountsService;
  apiKeys: ApiKeysService;
  /** Reads the audit log (every module writes it through `uow.audit`). */
  audit: AuditService;
  auth: AuthService;
  /** Two-factor sign-in: enrolment, codes, the admins' reset and the security settings. */
  twoFactor: TwoFactorService;
  nodes: NodesService;
  /** Modules add report kinds with `nodeReports.registerReportHandler(kind, handler)`. */
  nodeReports: NodeReportsService;
  nodeGroups: NodeGroupsService;
  /** The autoscaler (tests call `scaling.autoscaler.tick()`), the providers and the callback notifier. */
  scaling: NodeGroupsParts;
  storages: StoragesService;
  streams: StreamsService;
  outputs: OutputsService;
  /** Usage, billing and metric series; `statistics.expire()` drops expired samples. */
  statistics: StatisticsService;
  transcode: TranscodeService;
  fallbacks: FallbacksService;
  snapshots: SnapshotsService;
  recordings: RecordingsService;
  relays: RelaysService;
  /** The delivery log and secrets (`webhooks.service`), the outbox, and this process's dispatcher. */
  webhooks: WebhooksModule;
}

/**
 * The modules, in the order they register: each is a Fastify plugin that makes its service and registers
 * its routes, the node report kinds it handles and its periodic jobs (see its `*.module.ts`). A module uses
 * the services of modules before it.
 */
const MODULES = [
  // First: its hook gives every request the context audit records read the source address from.
  auditModule,
  healthModule,
  authModule,
  accountsModule,
  nodesModule,
  webhooksModule,
  nodeGroupsModule,
  storagesModule,
  // Before streams: the nodes' list of what they serve carries the keys of Signed outputs' accounts.
  playbackKeysModule,
  streamsModule,
  transcodeModule,
  fallbacksModule,
  snapshotsModule,
  playModule,
  recordingsModule,
  relaysModule,
  statisticsModule,
];

/** The whole control plane as one Fastify instance: plugins, then modules, then the console. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance & { services: AppServices }> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 1024 * 1024,
    trustProxy: false,
    forceCloseConnections: 'idle',
    // The shutdown gate answers 503 in the API's own error shape.
    return503OnClosing: false,
    // The router's and Node's parser's refusals (bad URL, 414, 431, ...) answer the API's error shape too.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors,
    clientErrorHandler,
    ajv: { customOptions: { removeAdditional: false } },
    logController: new OneLinePerRequest(),
  });
  app.setValidatorCompiler(validatorCompiler);
  // Answers are written by functions compiled from the contract's schemas, not checked by zod on each one.
  app.setSerializerCompiler(compiledSerializerCompiler());
  // Media nodes poll and report every few seconds: their requests are logged only when something fails.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(`${API_BASE}/node/`)) route.logLevel = 'warn';
  });
  // The API speaks JSON only: anything else is refused with 415 rather than validated as a string.
  app.removeContentTypeParser('text/plain');
  registerErrorHandler(app);
  registerShutdownGate(app);

  const sessionCache = new SessionCache();
  const responseCache = new ResponseCache();
  const nodeOrigins = new NodeOrigins(() => context.uow.nodes.list());
  const db = options.database.db
    .withPlugin(sessionCache.localWrites())
    .withPlugin(responseCache.localWrites())
    // A node created, changed or removed by this process (its API, the autoscaler, the local node's start)
    // counts for the next console page at once.
    .withPlugin(tableWritesPlugin({ tables: new Set(['nodes']), inserts: true }, () => nodeOrigins.invalidate()));
  const context: ModuleContext = {
    uow: new UnitOfWork(db),
    sessionCache,
    responseCache,
    clock: options.clock ?? systemClock,
    options,
    scryptCost: options.scryptCost ?? OWASP_SCRYPT,
    hashing: options.hashing ?? new HashingGate(),
    outbound: options.outbound ?? DEFAULT_OUTBOUND,
    // Storage secrets, relay stream keys and TOTP secrets are sealed with one key (each bound to its row as additional data).
    secrets: new SecretBox(
      options.storageEncryptionKey ?? Buffer.from(deriveKey(options.secret, 'storage-secrets'), 'base64url'),
    ),
  };
  app.decorate('moduleContext', context);
  const stopWatchingTransactions = options.database.transactions.subscribe((phase) =>
    responseCache.onTransaction(phase),
  );
  app.addHook('onClose', async () => stopWatchingTransactions());
  keepListening(app, options.database, RESPONSE_INVALIDATION_CHANNEL, responseCache);
  // Of the API processes sharing a database (API_WORKERS, or several servers), one leads: it alone runs the
  // periodic jobs and the autoscaler. It is elected once the app is ready, before the jobs start.
  let leadership: Leadership | undefined;
  app.decorate('leadership', { leads: () => leadership?.leads() ?? false });
  app.addHook('onReady', async () => {
    leadership = await options.database.campaign(LEADER_LOCK_KEY);
  });
  app.addHook('onClose', async () => {
    await leadership?.stop();
  });
  app.decorate('services', {} as AppServices);

  await registerSecurity(app, deriveKey(options.secret, 'anti-forgery'), {
    connectOrigins: () => nodeOrigins.current(),
  });
  await app.register(rateLimit, { global: false });
  await registerOpenApi(app, { webhooks: webhooksOpenApi() });
  registerAuthGuard(app, {
    authenticate: (token) => app.services.auth.authenticate(token),
    cachedCaller: (token) => app.services.auth.cachedCaller(token),
    authenticateNode: (token) => app.services.nodes.authenticateNode(token),
    admitApiKey: (key, request) => app.services.apiKeys.admit(key, request),
  });
  for (const module of MODULES) await app.register(module);
  if (options.database.engine === 'pglite') {
    registerPeriodicJob(app, {
      what: 'vacuuming the embedded database',
      intervalMs: options.vacuumIntervalMs,
      run: () => vacuumWhereDue(db),
    });
  }
  await registerConsole(app, options.consoleDir, { apiBase: '/api/v1', storagePrefix: options.storagePrefix ?? '' });
  return app;
}
