import { z } from 'zod';
import { ClipStateReport } from './clips.js';
import { int32, Timestamp } from './common.js';
import { FallbackStateReport } from './fallbacks.js';
import { StreamStateReport } from './node-streams.js';
import { Node, NodeHealth } from './nodes.js';
import { RecordingStateReport } from './recordings.js';
import { RelayStateReport } from './relays.js';
import { defineRoute } from './routes.js';
import { SnapshotReport } from './snapshots.js';
import { MetricsReport, UsageReport } from './statistics.js';
import { VodReport } from './vods.js';

/**
 * The node-facing API: what a media node calls with its node token (`Authorization: Bearer <token>`).
 * Reports come in batches; each report carries an id chosen by the node, and a report the control
 * plane has already accepted from that node is counted as a duplicate and changes nothing, so a node
 * may resend a batch whose answer it did not get. Report ids are remembered for 24 hours.
 */
export const NODE_REPORT_BATCH_MAX = 500;
export const NODE_REPORT_ID_MAX = 128;
/** Snapshot reports carry images (up to 5 MB each, base64): report bodies may be this large. */
export const NODE_REPORT_BODY_LIMIT = 16 * 1024 * 1024;

const reportBase = {
  id: z
    .string({ error: 'Report id is required' })
    .min(1, 'Report id is required')
    .max(NODE_REPORT_ID_MAX, `Report id must be at most ${NODE_REPORT_ID_MAX} characters`),
  /** When the node measured it; the time of arrival when absent. */
  at: Timestamp.optional(),
};

/** The node's load, for the node list and the autoscaler. */
export const LoadReport = z.strictObject({
  ...reportBase,
  kind: z.literal('load'),
  cpuPercent: z.number().min(0, 'cpuPercent must be at least 0').max(100, 'cpuPercent must be at most 100'),
  bandwidthMbps: z.number().min(0, 'bandwidthMbps must be at least 0'),
  sessions: int32('sessions').min(0, 'sessions must be at least 0'),
  health: NodeHealth.optional(),
});
export type LoadReport = z.infer<typeof LoadReport>;

/** Every report kind; later kinds join this union. */
export const NodeReport = z.discriminatedUnion('kind', [
  LoadReport,
  StreamStateReport,
  UsageReport,
  MetricsReport,
  FallbackStateReport,
  SnapshotReport,
  RecordingStateReport,
  RelayStateReport,
  ClipStateReport,
  VodReport,
]);
export type NodeReport = z.infer<typeof NodeReport>;
export type NodeReportKind = NodeReport['kind'];

export const NodeReportBatch = z.strictObject({
  reports: z
    .array(NodeReport)
    .min(1, 'At least one report is required')
    .max(NODE_REPORT_BATCH_MAX, `At most ${NODE_REPORT_BATCH_MAX} reports per batch`),
});
export type NodeReportBatch = z.infer<typeof NodeReportBatch>;

export const NodeReportBatchResult = z.object({
  /** Reports applied by this call. */
  accepted: z.number().int(),
  /** Reports already received earlier (or twice in this batch), ignored. */
  duplicates: z.number().int(),
});
export type NodeReportBatchResult = z.infer<typeof NodeReportBatchResult>;

export const nodeReportRoutes = {
  whoami: defineRoute({
    method: 'GET',
    path: '/node/whoami',
    summary: "The calling node's own record (lets a media node check its node token)",
    tag: 'node-facing',
    auth: 'node',
    response: Node,
  }),
  report: defineRoute({
    method: 'POST',
    path: '/node/reports',
    summary:
      'Send a batch of reports (1 to 500), each discriminated by its `kind`. Idempotent by report id per node: ' +
      'a report already received counts as a duplicate and changes nothing. The batch is applied all or nothing.',
    tag: 'node-facing',
    auth: 'node',
    body: NodeReportBatch,
    response: NodeReportBatchResult,
    errors: [413],
  }),
};

/**
 * How a stream's status message begins when the node's WebRTC (WHEP) feed of it cannot run: the node writes
 * it with the reason, the console's preview shows it.
 */
export const WEBRTC_PLAYBACK_FAILED = 'WebRTC playback cannot start';
