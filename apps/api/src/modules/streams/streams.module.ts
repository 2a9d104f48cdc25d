import { registerPeriodicJob } from '../../lib/periodic.js';
import { deriveKey } from '../../lib/secrets.js';
import { GeoLocator } from '../info/geo-locator.js';
import { defineModule } from '../module.js';
import { DEFAULT_NODE_SILENCE_MS } from '../nodes/index.js';
import { OutputsRepository } from './outputs.repository.js';
import { OutputsService } from './outputs.service.js';
import type { StreamCatalog } from './stream-catalog.js';
import { StreamStateReports } from './stream-state-reports.js';
import { StreamStatesRepository } from './stream-states.repository.js';
import { StreamsRepository } from './streams.repository.js';
import { registerStreamRoutes } from './streams.routes.js';
import { StreamsService } from './streams.service.js';

declare module '../module.js' {
  interface AppOptions {
    /** Host of the global load-balancing ingest endpoints ('localhost' by default). */
    gslbHostname?: string;
    /** Where WHIP at GSLB names is answered: the control plane as publishers reach it ('http://localhost:8080' by default). */
    gslbUrl?: string;
    /**
     * How often inputs waiting for a node are assigned, and inputs of silent nodes leave Ingestion;
     * the loop runs only when set (server.ts).
     */
    streamAssignIntervalMs?: number;
  }
  interface AppServices {
    streams: StreamsService;
    outputs: OutputsService;
  }
}

declare module '../../db/unit-of-work.js' {
  interface UnitOfWorkParts {
    streams: StreamsRepository;
    outputs: OutputsRepository;
    /** The node-facing writes of many streams at once (stream-state reports). */
    streamStates: StreamStatesRepository;
    /** The streams module's port: what other modules may read of streams. */
    streamCatalog: StreamCatalog;
  }
}

declare module '../access/access.js' {
  interface AccessResources {
    stream: true;
    output: true;
  }
}

/**
 * Streams (`/inputs`) and their viewer outputs, the node-facing list of what a node serves, the
 * stream-state reports, and the job that places waiting streams on nodes and expires silent nodes.
 */
export const streamsModule = defineModule({
  name: 'streams',
  dependencies: ['nodes', 'playback-keys'],
  tables: [
    'inputs',
    'input_counts',
    'input_status_messages',
    'input_tracks',
    'outputs',
    'output_sessions',
    'ingress_endpoints',
  ],
  repositories: { streams: StreamsRepository, outputs: OutputsRepository, streamStates: StreamStatesRepository },
  ports: { streamCatalog: (uow) => uow.streams },
  access: {
    stream: { entity: 'Stream', table: 'inputs', owner: 'owner_id', stream: 'id', node: 'node_id' },
    output: { entity: 'Output', table: 'outputs', onStream: 'input_id' },
  },
  tags: {
    streams: 'Streams (`/inputs`): what a publisher pushes and viewers watch.',
    outputs: "A stream's playback endpoints.",
    gslb: 'The global load-balancing ingest endpoints.',
    info: "Where an address is, and a stream's tracks.",
  },
  async register(app, { uow, clock, options, responseCache }) {
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
      previewSigningKey: deriveKey(options.secret, 'preview-credentials'),
      nodeSilenceMs,
      signingVersionsOf: (accountIds) => app.services.playbackKeys.signingVersionsOf(accountIds),
    });
    const outputs = new OutputsService({
      uow,
      geo,
      clock,
      events: streams.events,
      nodeSilenceMs,
      pushToNodes: (accountId) => app.services.nodes.pushStreamsOf(accountId),
      nodes: app.services.nodes,
    });
    app.services.streams = streams;
    app.services.outputs = outputs;
    app.services.nodeReports.registerReportHandler('stream-state', new StreamStateReports(streams.events).apply);
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
});
