import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import { NodesRepository } from '../nodes/nodes.repository.js';
import type { WebhookOutbox } from '../webhooks/index.js';
import { Autoscaler, type AutoscalerOptions, DEFAULT_AUTOSCALER_OPTIONS } from './autoscaler.js';
import { NodeGroupsRepository } from './node-groups.repository.js';
import { NodeGroupsService } from './node-groups.service.js';
import { unconfiguredScaling } from './providers/config.js';
import { createScalingProviders } from './providers/index.js';
import type { ScalingProviders } from './providers/provider.js';
import { ResourcesChanges } from './resources-changed.js';
import { ScalingExecutor } from './scaling-actions.js';

/** Options of buildApp for node groups and the autoscaler. */
export interface ScalingOptions {
  /** Run the autoscaler loop (server.ts turns it on; tests call `autoscaler.tick()` themselves). */
  autoscale?: boolean;
  autoscaler?: Partial<AutoscalerOptions>;
  /** The providers; by default the three clouds unconfigured and the local provider. */
  providers?: ScalingProviders;
}

export interface NodeGroupsModule {
  service: NodeGroupsService;
  autoscaler: Autoscaler;
  providers: ScalingProviders;
}

/** Constructs the node groups module: repository, providers, executor, service, autoscaler. */
export function createNodeGroupsModule(deps: {
  db: Db;
  audit: AuditRepository;
  clock: Clock;
  /** Where node-group.resources-changed events go. */
  outbox: WebhookOutbox;
  log?: FastifyBaseLogger;
  options?: ScalingOptions;
}): NodeGroupsModule {
  const options = deps.options ?? {};
  const repository = new NodeGroupsRepository(deps.db);
  const nodes = new NodesRepository(deps.db);
  const providers = options.providers ?? createScalingProviders(unconfiguredScaling());
  const resources = new ResourcesChanges({ db: deps.db, outbox: deps.outbox, clock: deps.clock });
  const executor = new ScalingExecutor({
    repository,
    providers,
    audit: deps.audit,
    clock: deps.clock,
    resources,
  });
  const service = new NodeGroupsService({
    repository,
    nodes,
    executor,
    resources,
    audit: deps.audit,
    clock: deps.clock,
  });
  const autoscaler = new Autoscaler({
    repository,
    executor,
    clock: deps.clock,
    ...(deps.log ? { log: deps.log } : {}),
    options: { ...DEFAULT_AUTOSCALER_OPTIONS, ...options.autoscaler },
  });
  return { service, autoscaler, providers };
}
