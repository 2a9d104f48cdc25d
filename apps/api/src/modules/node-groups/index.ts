import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { DEFAULT_OUTBOUND } from '../../lib/outbound.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import { NodesRepository } from '../nodes/nodes.repository.js';
import { Autoscaler, type AutoscalerOptions, DEFAULT_AUTOSCALER_OPTIONS } from './autoscaler.js';
import { NodeGroupsRepository } from './node-groups.repository.js';
import { NodeGroupsService } from './node-groups.service.js';
import { unconfiguredScaling } from './providers/config.js';
import { createScalingProviders } from './providers/index.js';
import type { Fetch, ScalingProviders } from './providers/provider.js';
import { ResourcesCallback } from './resources-callback.js';
import { ScalingExecutor } from './scaling-actions.js';

/** Options of buildApp for node groups and the autoscaler. */
export interface ScalingOptions {
  /** Run the autoscaler loop (server.ts turns it on; tests call `autoscaler.tick()` themselves). */
  autoscale?: boolean;
  autoscaler?: Partial<AutoscalerOptions>;
  /** The providers; by default the three clouds unconfigured and the local provider. */
  providers?: ScalingProviders;
  /** The fetch of the resources-change callback: a guarded one (lib/outbound.ts), users' destinations. */
  fetch?: Fetch;
}

export interface NodeGroupsModule {
  service: NodeGroupsService;
  autoscaler: Autoscaler;
  callback: ResourcesCallback;
  providers: ScalingProviders;
}

/** Constructs the node groups module: repository, providers, executor, callback, service, autoscaler. */
export function createNodeGroupsModule(deps: {
  db: Db;
  audit: AuditRepository;
  clock: Clock;
  log?: FastifyBaseLogger;
  options?: ScalingOptions;
}): NodeGroupsModule {
  const options = deps.options ?? {};
  const repository = new NodeGroupsRepository(deps.db);
  const nodes = new NodesRepository(deps.db);
  const providers = options.providers ?? createScalingProviders(unconfiguredScaling());
  const callback = new ResourcesCallback({
    repository,
    clock: deps.clock,
    fetch: options.fetch ?? DEFAULT_OUTBOUND.users.fetch,
  });
  const executor = new ScalingExecutor({
    repository,
    nodes,
    providers,
    audit: deps.audit,
    clock: deps.clock,
    callback,
  });
  const service = new NodeGroupsService({
    repository,
    nodes,
    executor,
    callback,
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
  return { service, autoscaler, callback, providers };
}
