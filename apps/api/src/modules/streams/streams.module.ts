import { registerPeriodicJob } from '../../lib/periodic.js';
import { deriveKey } from '../../lib/secrets.js';
import { GeoLocator } from '../info/geo-locator.js';
import { defineModule } from '../module.js';
import { DEFAULT_NODE_SILENCE_MS } from '../nodes/nodes.service.js';
import { OutputsService } from './outputs.service.js';
import { registerStreamRoutes } from './streams.routes.js';
import { StreamsService } from './streams.service.js';

/**
 * Streams (`/inputs`) and their viewer outputs, the node-facing list of what a node serves, the
 * stream-state reports, and the job that places waiting streams on nodes and expires silent nodes.
 */
export const streamsModule = defineModule(
  'streams',
  async (app, { uow, clock, options, responseCache }) => {
    const geo = await GeoLocator.open();
    const nodeSilenceMs = options.nodeSilenceMs ?? DEFAULT_NODE_SILENCE_MS;
    const streams = new StreamsService({
      uow,
      responses: responseCache,
      geo,
      clock,
      nodes: app.services.nodes,
      gslbHostname: options.gslbHostname ?? 'localhost',
      gslbUrl: options.gslbUrl ?? 'http://localhost:8080',
      outbox: app.services.webhooks.outbox,
      previewSigningKey: deriveKey(options.secret, 'preview-credentials'),
      nodeSilenceMs,
      signingVersionsOf: (accountIds) => app.services.playbackKeys.signingVersionsOf(accountIds),
    });
    const outputs = new OutputsService({
      uow,
      geo,
      clock,
      webhooks: streams.webhooks,
      nodeSilenceMs,
      pushToNodes: (accountId) => app.services.nodes.pushStreamsOf(accountId),
      nodes: app.services.nodes,
    });
    app.services.streams = streams;
    app.services.outputs = outputs;
    app.services.nodeReports.registerReportHandler('stream-state', streams.applyStateReports);
    registerPeriodicJob(app, {
      what: 'assigning waiting streams, expiring silent nodes or placing outputs again',
      intervalMs: options.streamAssignIntervalMs,
      run: async () => {
        await streams.assignWaiting();
        await streams.expireSilentNodes(nodeSilenceMs);
        await outputs.replaceMisplaced();
      },
    });
    registerStreamRoutes(app, streams, outputs);
  },
  ['nodes', 'webhooks', 'playback-keys'],
);
