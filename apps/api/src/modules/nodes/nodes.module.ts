import { defineModule } from '../module.js';
import { NodeControlClient } from './node-control.client.js';
import { handleLoadReports } from './node-load.js';
import { NodeReportsService } from './node-reports.service.js';
import { registerNodeRoutes } from './nodes.routes.js';
import { DEFAULT_NODE_SILENCE_MS, NodesService } from './nodes.service.js';

/**
 * The platform's nodes (admin only), the node-facing API they report through, and their load reports.
 * Other modules handle the other report kinds with `app.services.nodeReports.registerReportHandler`.
 */
export const nodesModule = defineModule('nodes', (app, { uow, clock, options, outbound }) => {
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
});
