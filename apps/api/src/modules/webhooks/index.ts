import { WEBHOOK_LOG_RETENTION_DAYS, WEBHOOK_TIMEOUT_SECONDS } from '@streamcloud/contract';
import { addressPolicy, createNetGuard, type NetGuard } from '@streamcloud/net-guard';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { PeriodicJob } from '../../lib/periodic.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { Access } from '../access/access.js';
import type { AuditRepository } from '../audit/index.js';
import { type DispatcherOptions, WebhookDispatcher } from './dispatcher.js';
import { DEFAULT_RETRY_DELAYS_MS } from './retry-schedule.js';
import { SigningSecrets } from './signing-secrets.js';
import { WebhookOutbox } from './webhook-outbox.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { WebhooksService } from './webhooks.service.js';

export { type WebhookEventSpec, WebhookOutbox } from './webhook-outbox.js';

/** Options of buildApp for webhooks. */
export interface WebhookOptions {
  /** Run this process's dispatcher (server.ts turns it on; tests drain it or turn it on). */
  dispatch?: boolean;
  /**
   * CALLBACK_ALLOW_PRIVATE_NETWORKS: callbacks may reach private and loopback addresses even where the
   * users' guard (ALLOW_PRIVATE_NETWORKS) refuses them. Link-local and metadata addresses never.
   */
  allowPrivateNetworks?: boolean;
  dispatcher?: Partial<DispatcherOptions>;
  /** How often deliveries past retention are dropped; only when set. */
  retentionIntervalMs?: number;
}

export const DEFAULT_DISPATCHER_OPTIONS: DispatcherOptions = {
  timeoutMs: WEBHOOK_TIMEOUT_SECONDS * 1000,
  retryDelaysMs: DEFAULT_RETRY_DELAYS_MS,
  batchSize: 100,
  concurrency: 64,
  pollIntervalMs: 5_000,
};

export interface WebhooksModule {
  /** Where other modules write their events, in their own transactions. */
  outbox: WebhookOutbox;
  service: WebhooksService;
  dispatcher: WebhookDispatcher;
  repository: WebhooksRepository;
}

/**
 * The webhooks module: outbox, signing secrets, the log API (`registerWebhookRoutes`) and this process's
 * dispatcher, which starts with the app (when `dispatch`) and stops with it.
 */
export function createWebhooksModule(
  app: FastifyInstance,
  deps: {
    database: DatabaseHandle;
    audit: AuditRepository;
    access: Access;
    clock: Clock;
    box: SecretBox;
    /** The guard of the destinations users choose (lib/outbound.ts): callbacks are such destinations. */
    users: NetGuard;
    log?: FastifyBaseLogger;
    options?: WebhookOptions;
  },
): WebhooksModule {
  const options = deps.options ?? {};
  const { db } = deps.database;
  const repository = new WebhooksRepository(db);
  const secrets = new SigningSecrets({ repository, box: deps.box, clock: deps.clock });
  const outbox = new WebhookOutbox(deps.clock);
  // A guard of the module's own when callbacks may reach private networks and other users' destinations may not.
  const own = options.allowPrivateNetworks ? createNetGuard(addressPolicy({ allowPrivate: true })) : null;
  const guard = own ?? deps.users;
  const dispatcher = new WebhookDispatcher({
    repository,
    secrets,
    fetch: guard.fetch,
    clock: deps.clock,
    ...(deps.log ? { log: deps.log } : {}),
    options: { ...DEFAULT_DISPATCHER_OPTIONS, ...options.dispatcher },
  });
  const service = new WebhooksService({
    db,
    repository,
    secrets,
    outbox,
    audit: deps.audit,
    access: deps.access,
    clock: deps.clock,
  });
  const retention = new PeriodicJob(
    () =>
      repository.deleteFinishedBefore(
        new Date(deps.clock.now().getTime() - WEBHOOK_LOG_RETENTION_DAYS * 24 * 3600_000),
      ),
    options.retentionIntervalMs ?? 0,
    (error) => deps.log?.error({ err: error }, 'dropping old webhook deliveries failed'),
    () => app.leadership.leads(),
  );

  let unlisten: (() => Promise<void>) | null = null;
  if (options.dispatch) {
    app.addHook('onReady', async () => {
      // On the embedded database this process is the only one: a lease left by a crash is its own.
      if (deps.database.engine === 'pglite') await repository.releaseAllClaims(deps.clock.now());
      unlisten = await deps.database.listen('webhook_deliveries', () => dispatcher.wake());
      dispatcher.start();
    });
  }
  if (options.retentionIntervalMs) app.addHook('onReady', async () => retention.start());
  app.addHook('onClose', async () => {
    await unlisten?.();
    await retention.stop();
    await dispatcher.stop();
    own?.agents.http.destroy();
    own?.agents.https.destroy();
  });
  return { outbox, service, dispatcher, repository };
}
