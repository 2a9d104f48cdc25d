import { accountRoutes } from './accounts.js';
import { analyticsRoutes } from './analytics.js';
import { apiKeyRoutes } from './api-keys.js';
import { auditRoutes } from './audit.js';
import { authRoutes } from './auth.js';
import { clipRoutes, nodeClipRoutes } from './clips.js';
import { fallbackRoutes, nodeFallbackRoutes } from './fallbacks.js';
import { nodeMediaRoutes } from './media-node.js';
import { nodeGroupRoutes } from './node-groups.js';
import { nodeReportRoutes } from './node-reports.js';
import { nodeStreamRoutes } from './node-streams.js';
import { nodeRoutes } from './nodes.js';
import { playRoutes } from './play.js';
import { playbackKeyRoutes } from './playback-keys.js';
import { nodeRecordingRoutes, recordingRoutes } from './recordings.js';
import { nodeRelayRoutes, relayRoutes } from './relays.js';
import type { AnyRoute } from './routes.js';
import { nodeSnapshotRoutes, snapshotRoutes } from './snapshots.js';
import { statisticsRoutes } from './statistics.js';
import { storageRoutes } from './storages.js';
import { streamRoutes } from './streams.js';
import { nodeTranscodeRoutes, transcodeRoutes } from './transcode.js';
import { twoFactorRoutes } from './two-factor.js';
import { vodRoutes } from './vods.js';
import { webhookRoutes } from './webhooks.js';

/**
 * Every route group of the API, by name. Tools that must cover the whole API (the fuzzing suite, scope
 * checks) read this table, so a group added to the contract must be added here to be covered.
 */
export const routeTable = {
  accountRoutes,
  analyticsRoutes,
  apiKeyRoutes,
  auditRoutes,
  authRoutes,
  clipRoutes,
  nodeClipRoutes,
  fallbackRoutes,
  nodeFallbackRoutes,
  nodeMediaRoutes,
  nodeGroupRoutes,
  nodeReportRoutes,
  nodeRoutes,
  playRoutes,
  playbackKeyRoutes,
  recordingRoutes,
  nodeRecordingRoutes,
  relayRoutes,
  nodeRelayRoutes,
  snapshotRoutes,
  nodeSnapshotRoutes,
  statisticsRoutes,
  storageRoutes,
  streamRoutes,
  nodeStreamRoutes,
  transcodeRoutes,
  nodeTranscodeRoutes,
  twoFactorRoutes,
  vodRoutes,
  webhookRoutes,
} satisfies Record<string, Record<string, AnyRoute>>;

export interface RouteEntry {
  /** `group.name`, e.g. `streamRoutes.create`. */
  id: string;
  route: AnyRoute;
}

/** Every route of the table, in a stable order. */
export function allRoutes(): RouteEntry[] {
  return Object.entries(routeTable).flatMap(([group, routes]) =>
    Object.entries(routes as Record<string, AnyRoute>).map(([name, route]) => ({ id: `${group}.${name}`, route })),
  );
}
