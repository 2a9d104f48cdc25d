import { defineModule } from '../module.js';
import { Autoscaler, type AutoscalerOptions, DEFAULT_AUTOSCALER_OPTIONS } from './autoscaler.js';
import { NodeGroupsRepository } from './node-groups.repository.js';
import { registerNodeGroupRoutes } from './node-groups.routes.js';
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

/** The node groups module's parts that tests and shutdown reach. */
export interface NodeGroupsParts {
  service: NodeGroupsService;
  autoscaler: Autoscaler;
  providers: ScalingProviders;
}

declare module '../module.js' {
  interface AppOptions {
    /** Node groups' autoscaler and providers; the loop runs only with `scaling.autoscale`. */
    scaling?: ScalingOptions;
  }
  interface AppServices {
    nodeGroups: NodeGroupsService;
    /** The autoscaler (tests call `scaling.autoscaler.tick()`), the providers and the callback notifier. */
    scaling: NodeGroupsParts;
  }
}

declare module '../../db/unit-of-work.js' {
  interface UnitOfWorkParts {
    nodeGroups: NodeGroupsRepository;
  }
}

declare module '../access/access.js' {
  interface AccessResources {
    nodeGroup: true;
  }
}

/**
 * Node groups, their scaling rules and providers, the autoscaler loop, and the node-group.resources-changed
 * event (a domain event the webhooks module turns into a delivery).
 */
export const nodeGroupsModule = defineModule({
  name: 'node-groups',
  dependencies: ['nodes', 'accounts'],
  tables: ['node_groups', 'scaling_rules', 'node_group_resources', 'scaling_events'],
  repositories: { nodeGroups: NodeGroupsRepository },
  // The streaming cloud's own groups belong to no account (null owner): ADMIN only.
  access: { nodeGroup: { entity: 'Node group', table: 'node_groups', owner: 'owner_id' } },
  tags: { 'node-groups': 'Node groups, their scaling rules and providers, and the autoscaler.' },
  register(app, { uow, clock, options: appOptions }) {
    const options = appOptions.scaling ?? {};
    const repository = uow.nodeGroups;
    const providers = options.providers ?? createScalingProviders(unconfiguredScaling());
    const resources = new ResourcesChanges({ uow, clock });
    const executor = new ScalingExecutor({
      repository,
      providers,
      audit: uow.audit,
      clock,
      resources,
    });
    const service = new NodeGroupsService({
      uow,
      nodes: app.services.nodes,
      accounts: app.services.accounts,
      executor,
      resources,
      clock,
    });
    const autoscaler = new Autoscaler({
      repository,
      executor,
      clock,
      log: app.log,
      options: { ...DEFAULT_AUTOSCALER_OPTIONS, ...options.autoscaler },
    });
    app.services.nodeGroups = service;
    app.services.scaling = { service, autoscaler, providers };
    if (options.autoscale) {
      app.addHook('onReady', async () => autoscaler.start(undefined, () => app.leadership.leads()));
    }
    app.addHook('onClose', async () => {
      await autoscaler.stop();
      await providers.close();
    });
    registerNodeGroupRoutes(app, service);
  },
});
