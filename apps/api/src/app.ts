import rateLimit from '@fastify/rate-limit';
import { API_BASE } from '@streamcloud/contract';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { DatabaseHandle } from './db/database.js';
import { vacuumWhereDue } from './db/vacuum.js';
import { type Clock, systemClock } from './lib/clock.js';
import { HashingGate } from './lib/hashing-gate.js';
import { DEFAULT_OUTBOUND, type Outbound } from './lib/outbound.js';
import { OWASP_SCRYPT, type ScryptCost } from './lib/password.js';
import { PeriodicJob } from './lib/periodic.js';
import { SecretBox } from './lib/secret-box.js';
import { deriveKey } from './lib/secrets.js';
import { TokenSigner } from './lib/tokens.js';
import { AccountsRepository } from './modules/accounts/accounts.repository.js';
import { registerAccountRoutes } from './modules/accounts/accounts.routes.js';
import { AccountsService } from './modules/accounts/accounts.service.js';
import { AuditRepository } from './modules/audit/audit.repository.js';
import { registerAuthRoutes } from './modules/auth/auth.routes.js';
import { AuthService, DEFAULT_LOGIN_THROTTLE, type LoginThrottle } from './modules/auth/auth.service.js';
import { LoginThrottleRepository } from './modules/auth/login-throttle.repository.js';
import { SessionsRepository } from './modules/auth/sessions.repository.js';
import { registerFallbackRoutes } from './modules/fallbacks/fallbacks.routes.js';
import { FallbacksService } from './modules/fallbacks/fallbacks.service.js';
import { registerHealthRoutes } from './modules/health/health.routes.js';
import { GeoLocator } from './modules/info/geo-locator.js';
import { createNodeGroupsModule, type NodeGroupsModule, type ScalingOptions } from './modules/node-groups/index.js';
import { registerNodeGroupRoutes } from './modules/node-groups/node-groups.routes.js';
import type { NodeGroupsService } from './modules/node-groups/node-groups.service.js';
import { NodeControlClient } from './modules/nodes/node-control.client.js';
import { registerLoadReports } from './modules/nodes/node-load.js';
import { NodeReportsService } from './modules/nodes/node-reports.service.js';
import { NodesRepository } from './modules/nodes/nodes.repository.js';
import { registerNodeRoutes } from './modules/nodes/nodes.routes.js';
import { NodesService } from './modules/nodes/nodes.service.js';
import { registerRecordingRoutes } from './modules/recordings/recordings.routes.js';
import { RecordingsService, recordingsStorageUsage } from './modules/recordings/recordings.service.js';
import { registerRelayRoutes } from './modules/relays/relays.routes.js';
import { RelaysService } from './modules/relays/relays.service.js';
import { registerSnapshotRoutes } from './modules/snapshots/snapshots.routes.js';
import { SnapshotsService } from './modules/snapshots/snapshots.service.js';
import { createStatisticsModule, type StatisticsOptions } from './modules/statistics/index.js';
import { registerStatisticsRoutes } from './modules/statistics/statistics.routes.js';
import type { StatisticsService } from './modules/statistics/statistics.service.js';
import { S3ConnectionChecker } from './modules/storages/s3-connection.js';
import type { StorageUsage } from './modules/storages/storage-usage.js';
import { StoragesRepository } from './modules/storages/storages.repository.js';
import { registerStorageRoutes } from './modules/storages/storages.routes.js';
import { StoragesService } from './modules/storages/storages.service.js';
import { OutputsService } from './modules/streams/outputs.service.js';
import { registerStreamRoutes } from './modules/streams/streams.routes.js';
import { StreamsService } from './modules/streams/streams.service.js';
import { registerTranscodeRoutes } from './modules/transcode/transcode.routes.js';
import { TranscodeService } from './modules/transcode/transcode.service.js';
import {
  createWebhooksModule,
  registerWebhookRoutes,
  type WebhookOptions,
  type WebhooksModule,
} from './modules/webhooks/index.js';
import { webhooksOpenApi } from './modules/webhooks/openapi.js';
import { registerAuthGuard } from './plugins/auth-guard.js';
import { registerConsole } from './plugins/console-static.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { registerOpenApi } from './plugins/openapi.js';
import { registerSecurity } from './plugins/security.js';
import { registerShutdownGate } from './plugins/shutdown-gate.js';

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
  auth: AuthService;
  audit: AuditRepository;
  nodes: NodesService;
  /** Later modules add report kinds with `nodeReports.registerReportHandler(kind, handler)`. */
  nodeReports: NodeReportsService;
  nodeGroups: NodeGroupsService;
  /** The autoscaler (tests call `scaling.autoscaler.tick()`), the providers and the callback notifier. */
  scaling: NodeGroupsModule;
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

/** The whole control plane as one Fastify instance: plugins, then modules, then one error handler. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance & { services: AppServices }> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 1024 * 1024,
    trustProxy: false,
    forceCloseConnections: 'idle',
    // The shutdown gate answers 503 in the API's own error shape.
    return503OnClosing: false,
    ajv: { customOptions: { removeAdditional: false } },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Media nodes poll and report every few seconds: their requests are logged only when something fails.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(`${API_BASE}/node/`)) route.logLevel = 'warn';
  });
  // The API speaks JSON only: anything else is refused with 415 rather than validated as a string.
  app.removeContentTypeParser('text/plain');
  registerErrorHandler(app);
  registerShutdownGate(app);

  const { db } = options.database;
  const clock = options.clock ?? systemClock;
  const scryptCost = options.scryptCost ?? OWASP_SCRYPT;
  const outbound = options.outbound ?? DEFAULT_OUTBOUND;
  const hashing = options.hashing ?? new HashingGate();
  const accountsRepository = new AccountsRepository(db);
  const audit = new AuditRepository(db);
  const auth = new AuthService({
    accounts: accountsRepository,
    sessions: new SessionsRepository(db),
    throttle: new LoginThrottleRepository(db),
    audit,
    signer: new TokenSigner(deriveKey(options.secret, 'jwt'), clock),
    clock,
    scryptCost,
    loginThrottle: options.loginThrottle ?? DEFAULT_LOGIN_THROTTLE,
    hashing,
  });
  const accounts = new AccountsService({ accounts: accountsRepository, audit, clock, scryptCost, hashing });
  const nodes = new NodesService({
    nodes: new NodesRepository(db),
    control: new NodeControlClient({ timeoutMs: options.nodeControlTimeoutMs, fetch: outbound.operator.fetch }),
    audit,
    clock,
  });
  const nodeReports = new NodeReportsService({ db, clock });
  registerLoadReports(nodeReports);
  // Storage secrets and relay stream keys are sealed with one key (each bound to its row as additional data).
  const secretBox = new SecretBox(
    options.storageEncryptionKey ?? Buffer.from(deriveKey(options.secret, 'storage-secrets'), 'base64url'),
  );
  const webhooks = createWebhooksModule(app, {
    database: options.database,
    audit,
    clock,
    box: secretBox,
    users: outbound.users,
    log: app.log,
    ...(options.webhooks ? { options: options.webhooks } : {}),
  });
  const nodeGroups = createNodeGroupsModule({
    db,
    audit,
    clock,
    log: app.log,
    outbox: webhooks.outbox,
    options: options.scaling,
  });
  app.addHook('onClose', async () => {
    await nodeGroups.autoscaler.stop();
    await nodeGroups.providers.close();
  });
  const storages = new StoragesService({
    storages: new StoragesRepository(db),
    accounts: accountsRepository,
    audit,
    clock,
    secrets: secretBox,
    checker: new S3ConnectionChecker(options.storageCheckTimeoutMs, outbound.users.agents),
    usage: options.storageUsage ?? recordingsStorageUsage(db),
  });

  const geo = await GeoLocator.open();
  const streams = new StreamsService({
    db,
    audit,
    geo,
    clock,
    gslbHostname: options.gslbHostname ?? 'localhost',
    outbox: webhooks.outbox,
  });
  const outputs = new OutputsService({ db, streams, audit, geo, clock });
  nodeReports.registerReportHandler('stream-state', streams.applyStateReports);
  const nodeSilenceMs = options.nodeSilenceMs ?? 15_000;
  const assigner = new PeriodicJob(
    async () => {
      // Recordings and relays whose node is gone move to Error (docs/decisions.md, "The stuck-item rule").
      await recordings.expireLostNodes(nodeSilenceMs);
      await relays.expireLostNodes(nodeSilenceMs);
      await streams.assignWaiting();
      await streams.expireSilentNodes(nodeSilenceMs);
    },
    options.streamAssignIntervalMs ?? 0,
    (error) =>
      app.log.error({ err: error }, 'assigning waiting inputs, or expiring silent nodes and their jobs, failed'),
  );
  app.addHook('onClose', () => assigner.stop());
  const statistics = createStatisticsModule({
    db,
    clock,
    log: app.log,
    nodeReports,
    fetch: outbound.operator.fetch,
    options: options.statistics,
  });
  app.addHook('onClose', () => statistics.retention.stop());
  const vacuum = new PeriodicJob(
    () => vacuumWhereDue(db),
    options.vacuumIntervalMs ?? 0,
    (error) => app.log.error({ err: error }, 'vacuuming the embedded database failed'),
  );
  app.addHook('onClose', () => vacuum.stop());
  const transcode = new TranscodeService({ db, streams, audit, clock });
  const fallbacks = new FallbacksService({ db, streams, audit, clock });
  const snapshots = new SnapshotsService({ db, streams, audit, clock });
  nodeReports.registerReportHandler('fallback-state', fallbacks.applyStateReports);
  nodeReports.registerReportHandler('snapshot', snapshots.applyReports);
  const recordings = new RecordingsService({ db, streams, storages, audit, clock, outbox: webhooks.outbox });
  const relays = new RelaysService({ db, streams, audit, clock, secrets: secretBox, outbox: webhooks.outbox });
  nodeReports.registerReportHandler('recording-state', recordings.applyStateReports);
  nodeReports.registerReportHandler('relay-state', relays.applyStateReports);

  await registerSecurity(app, deriveKey(options.secret, 'anti-forgery'));
  await app.register(rateLimit, { global: false });
  await registerOpenApi(app, { webhooks: webhooksOpenApi() });
  registerAuthGuard(app, auth, nodes);

  registerHealthRoutes(app, options.database);
  registerAuthRoutes(app, auth, options.loginFloodLimit);
  registerAccountRoutes(app, accounts, auth);
  registerNodeRoutes(app, nodes, nodeReports);
  registerNodeGroupRoutes(app, nodeGroups.service);
  registerStorageRoutes(app, storages);
  registerStreamRoutes(app, streams, outputs);
  registerTranscodeRoutes(app, transcode);
  registerFallbackRoutes(app, fallbacks);
  registerSnapshotRoutes(app, snapshots);
  registerRecordingRoutes(app, recordings);
  registerRelayRoutes(app, relays);
  registerStatisticsRoutes(app, statistics.service, statistics.scrapeToken);
  registerWebhookRoutes(app, webhooks.service);
  await registerConsole(app, options.consoleDir, { apiBase: '/api/v1', storagePrefix: options.storagePrefix ?? '' });

  if (options.scaling?.autoscale) app.addHook('onReady', async () => nodeGroups.autoscaler.start());
  if (options.streamAssignIntervalMs) app.addHook('onReady', async () => assigner.start());
  if (options.statistics?.retentionIntervalMs) app.addHook('onReady', async () => statistics.retention.start());
  if (options.vacuumIntervalMs && options.database.engine === 'pglite')
    app.addHook('onReady', async () => vacuum.start());
  const services: AppServices = {
    accounts,
    auth,
    audit,
    nodes,
    nodeReports,
    nodeGroups: nodeGroups.service,
    scaling: nodeGroups,
    storages,
    streams,
    outputs,
    statistics: statistics.service,
    transcode,
    fallbacks,
    snapshots,
    recordings,
    relays,
    webhooks,
  };
  return Object.assign(app as FastifyInstance, { services });
}
