import { defineModule } from '../module.js';
import { NodeControlClient } from './node-control.client.js';
import { handleLoadReports } from './node-load.js';
import { NodeReportsRepository } from './node-reports.repository.js';
import { NodeReportsService } from './node-reports.service.js';
import { NodesRepository } from './nodes.repository.js';
import { registerNodeRoutes } from './nodes.routes.js';
import { DEFAULT_NODE_SILENCE_MS, NodesService } from './nodes.service.js';

declare module '../module.js' {
  interface AppOptions {
    /** Timeout of the control plane's calls to a node's control API (3 s by default). */
    nodeControlTimeoutMs?: number;
    /** A node with no report for this long has its Ingestion inputs set to Error (15 s by default). */
    nodeSilenceMs?: number;
  }
  interface AppServices {
    nodes: NodesService;
    /** Modules add report kinds with `nodeReports.registerReportHandler(kind, handler)`. */
    nodeReports: NodeReportsService;
  }
}

declare module '../../db/unit-of-work.js' {
  interface UnitOfWorkParts {
    nodes: NodesRepository;
    nodeReports: NodeReportsRepository;
  }
}

/**
 * The platform's nodes (admin only), the node-facing API they report through, and their load reports.
 * Other modules handle the other report kinds with `app.services.nodeReports.registerReportHandler`.
 */
export const nodesModule = defineModule({
  name: 'nodes',
  tables: ['nodes', 'node_load_samples', 'node_media_ports', 'node_reports'],
  repositories: { nodes: NodesRepository, nodeReports: NodeReportsRepository },
  tags: {
    nodes: 'The media nodes of the platform (ADMIN only).',
    'node-facing': "The media nodes' own API: what they serve, and their reports (a node token).",
  },
  register(app, { uow, clock, options, outbound }) {
    const nodes = new NodesService({
      uow,
      control: new NodeControlClient({ timeoutMs: options.nodeControlTimeoutMs, fetch: outbound.operator.fetch }),
      clock,
      silenceMs: options.nodeSilenceMs ?? DEFAULT_NODE_SILENCE_MS,
      log: { warn: (message) => app.log.warn(message) },
    });
    const nodeReports = new NodeReportsService({ uow, clock });
    nodeReports.registerReportHandler('load', handleLoadReports);
    // Every kind a node may send is handled once all modules registered; a kind left out fails the start.
    app.addHook('onReady', async () => {
      const unhandled = nodeReports.unhandledKinds();
      if (unhandled.length > 0) throw new Error(`No module handles the node report kinds: ${unhandled.join(', ')}`);
    });
    app.services.nodes = nodes;
    app.services.nodeReports = nodeReports;
    registerNodeRoutes(app, nodes, nodeReports);
  },
});
