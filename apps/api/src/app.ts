import cluster from 'node:cluster';
import rateLimit from '@fastify/rate-limit';
import { API_BASE } from '@streamcloud/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Leadership } from './db/database.js';
import { keepListening } from './db/invalidation-listener.js';
import { RESPONSE_INVALIDATION_CHANNEL, ResponseCache } from './db/response-cache.js';
import { tableWritesPlugin } from './db/table-writes.js';
import { UnitOfWork } from './db/unit-of-work.js';
import { vacuumWhereDue } from './db/vacuum.js';
import { systemClock } from './lib/clock.js';
import { HashingGate } from './lib/hashing-gate.js';
import { DEFAULT_OUTBOUND } from './lib/outbound.js';
import { OWASP_SCRYPT } from './lib/password.js';
import { registerPeriodicJob } from './lib/periodic.js';
import { compiledSerializerCompiler } from './lib/response-serializer.js';
import { SecretBox } from './lib/secret-box.js';
import { deriveKey } from './lib/secrets.js';
import { accountsModule } from './modules/accounts/accounts.module.js';
import { analyticsModule } from './modules/analytics/analytics.module.js';
import { auditModule } from './modules/audit/audit.module.js';
import { authModule } from './modules/auth/auth.module.js';
import { SessionCache } from './modules/auth/session-cache.js';
import { clipsModule } from './modules/clips/clips.module.js';
import { EventBus } from './modules/events.js';
import { fallbacksModule } from './modules/fallbacks/fallbacks.module.js';
import { healthModule } from './modules/health/health.module.js';
import { type AppOptions, type AppServices, type ModuleContext, unitOfWorkRecipe } from './modules/module.js';
import { nodeGroupsModule } from './modules/node-groups/node-groups.module.js';
import { NodeOrigins } from './modules/nodes/node-origins.js';
import { nodesModule } from './modules/nodes/nodes.module.js';
import { playModule } from './modules/play/play.module.js';
import { playbackKeysModule } from './modules/playback-keys/playback-keys.module.js';
import { recordingsModule } from './modules/recordings/recordings.module.js';
import { relaysModule } from './modules/relays/relays.module.js';
import { snapshotsModule } from './modules/snapshots/snapshots.module.js';
import { statisticsModule } from './modules/statistics/statistics.module.js';
import { storagesModule } from './modules/storages/storages.module.js';
import { streamTagsModule } from './modules/stream-tags/stream-tags.module.js';
import { streamsModule } from './modules/streams/streams.module.js';
import { transcodeModule } from './modules/transcode/transcode.module.js';
import { vodsModule } from './modules/vods/vods.module.js';
import { webhooksOpenApi } from './modules/webhooks/openapi.js';
import { webhooksModule } from './modules/webhooks/webhooks.module.js';
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

/** The app's options and services: the app's own, and what each module's manifest adds (modules/module.ts). */
export type { AppOptions, AppServices } from './modules/module.js';

/**
 * The modules, in the order they register: each is a Fastify plugin that makes its service and registers
 * its routes, the node report kinds it handles and its periodic jobs (see its `*.module.ts`). A module uses
 * the services of modules before it.
 */
export const MODULES = [
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
  streamTagsModule,
  transcodeModule,
  fallbacksModule,
  snapshotsModule,
  // Before recordings and clips: the bytes of their files it serves are billed through it.
  statisticsModule,
  recordingsModule,
  relaysModule,
  clipsModule,
  vodsModule,
  // After statistics: its series join the /metrics exposition; the player's read issues its viewer sessions.
  analyticsModule,
  playModule,
];

/** Names the API_WORKERS process that answered (its cluster worker id); absent from a single process. */
export const API_WORKER_HEADER = 'x-api-worker';

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
  // Which of the API_WORKERS processes answered (the cluster's number of the worker, new at each restart): each
  // keeps caches of its own (db/response-cache.ts), and the chaos run tells whose answers a console page got.
  if (cluster.worker) {
    const worker = String(cluster.worker.id);
    app.addHook('onSend', async (_request, reply) => {
      reply.header(API_WORKER_HEADER, worker);
    });
  }
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
  const events = new EventBus();
  const context: ModuleContext = {
    // Every module's repositories, ports and access resources, as their manifests declare them.
    uow: new UnitOfWork(
      db,
      unitOfWorkRecipe(
        MODULES.map((module) => module.manifest),
        events,
      ),
    ),
    events,
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
  await registerOpenApi(app, {
    webhooks: webhooksOpenApi(),
    tags: MODULES.flatMap((module) => Object.entries(module.manifest.tags ?? {})).map(([name, description]) => ({
      name,
      description,
    })),
  });
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
