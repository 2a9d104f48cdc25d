import { z } from 'zod';
import { Id, Timestamp } from './common.js';
import { defineRoute } from './routes.js';
import { InputFormat } from './stream-list.js';

/*
 * Usage (billing) and metrics: what nodes report, and what the statistics calls answer.
 * Times in paths are ISO timestamps; metric series are Prometheus-style matrices.
 */

// ---------------------------------------------------------------- enumerations and constants

/** The ten per-stream metric names of the streams spec. */
export const METRIC_NAMES = [
  'IncomingBitrate',
  'OutgoingBitrate',
  'OutgoingBitrateTotal',
  'ConcurrentViewers',
  'ConcurrentViewersTotal',
  'IncomingPacketsSent',
  'IncomingPacketsLost',
  'IncomingPacketsRetrans',
  'IncomingPacketsDropped',
  'IncomingRTT',
] as const;
export const MetricName = z.enum(METRIC_NAMES);
export type MetricName = z.infer<typeof MetricName>;

/**
 * The totals and the per-node metric each one adds up: they add up every node and location, which no
 * single node can see, so the control plane derives them.
 */
export const DERIVED_TOTALS = {
  OutgoingBitrateTotal: 'OutgoingBitrate',
  ConcurrentViewersTotal: 'ConcurrentViewers',
} as const satisfies Partial<Record<MetricName, MetricName>>;
type DerivedTotal = keyof typeof DERIVED_TOTALS;

/** What one node measures: every metric but the derived totals. */
export type NodeMetricName = Exclude<MetricName, DerivedTotal>;
export const NODE_METRIC_NAMES: readonly NodeMetricName[] = METRIC_NAMES.filter(
  (name): name is NodeMetricName => !(name in DERIVED_TOTALS),
);

/** Statistic groupings over many streams (the metrics dashboard). */
export const MetricKind = z.enum(['IncomingTotal', 'IncomingByOutputType', 'ViewersTotal']);
export type MetricKind = z.infer<typeof MetricKind>;

/** Everything `?metrics=` may name. */
export const STATISTIC_METRICS = [...MetricKind.options, ...METRIC_NAMES] as const;
export const StatisticMetric = z.enum(STATISTIC_METRICS);
export type StatisticMetric = z.infer<typeof StatisticMetric>;

/**
 * What the account-wide (many-stream) calls can answer: the groupings and the totals, which add up
 * across streams. The other metric names only make sense for one stream.
 */
export const ACCOUNT_METRICS = [
  ...MetricKind.options,
  ...(Object.keys(DERIVED_TOTALS) as DerivedTotal[]),
] as const satisfies readonly StatisticMetric[];
export type AccountMetric = (typeof ACCOUNT_METRICS)[number];

/** Statistic protocol types: `Input` + the input's format. */
export const StatisticProtocol = z.enum(InputFormat.options.map((format) => `Input${format}` as const));
export type StatisticProtocol = z.infer<typeof StatisticProtocol>;
export const protocolOfFormat = (format: InputFormat): StatisticProtocol => `Input${format}`;
/** The series name of one protocol in IncomingByOutputType: `INPUT:RTMP`, `INPUT:WebRTC` … */
export const inputTypeName = (protocol: StatisticProtocol) => `INPUT:${protocol.slice('Input'.length)}`;

/** Processing types: adjustable transcoding or passthrough (from the stream's name). */
export const ProcessingType = z.enum(['Transcode', 'Passthrough']);
export type ProcessingType = z.infer<typeof ProcessingType>;

export const ReportMode = z.enum(['Total', 'Detailed', 'VeryDetailed']);
export type ReportMode = z.infer<typeof ReportMode>;

/** The longest window a statistics call accepts. */
export const STATISTICS_MAX_WINDOW_DAYS = 92;
const MAX_WINDOW_MS = STATISTICS_MAX_WINDOW_DAYS * 24 * 3600 * 1000;
/** A series has at most about this many points: the step grows with the window. */
export const METRICS_MAX_POINTS = 1000;
/** Steps (seconds) a series may have; the smallest that keeps the window within METRICS_MAX_POINTS. */
export const METRIC_STEPS_SECONDS = [
  5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400,
] as const;

/** The step (seconds) of the series of a window. */
export function metricStepSeconds(fromMs: number, toMs: number): number {
  const span = Math.max(0, toMs - fromMs) / 1000;
  for (const step of METRIC_STEPS_SECONDS) if (span / step <= METRICS_MAX_POINTS) return step;
  return METRIC_STEPS_SECONDS[METRIC_STEPS_SECONDS.length - 1] as number;
}

// ---------------------------------------------------------------- node-facing reports

const reportId = z
  .string({ error: 'Report id is required' })
  .min(1, 'Report id is required')
  .max(128, 'Report id must be at most 128 characters');
/** Bytes in one delta; far above any real link, low enough to catch a garbage counter. */
export const USAGE_BYTES_MAX = 1e15;
/** Seconds in one delta. */
export const USAGE_DURATION_MAX = 24 * 3600;
export const USAGE_SESSIONS_MAX = 1000;
export const METRICS_STREAMS_MAX = 1000;
export const LOCATION_LABEL_MAX = 32;

const bytes = (field: string) =>
  z
    .number({ error: `${field} must be a number of bytes` })
    .min(0, `${field} must be at least 0`)
    .max(USAGE_BYTES_MAX, `${field} must be at most ${USAGE_BYTES_MAX}`);
const seconds = (field: string) =>
  z
    .number({ error: `${field} must be a number of seconds` })
    .min(0, `${field} must be at least 0`)
    .max(USAGE_DURATION_MAX, `${field} must be at most ${USAGE_DURATION_MAX}`);

/** Relayed (internode) or served (outgoing) traffic of a stream on the reporting node since its last report. */
export const TrafficDelta = z.strictObject({
  duration: seconds('duration').default(0),
  upload: bytes('upload'),
  download: bytes('download'),
});

/**
 * Usage of one stream on the reporting node since its previous usage report (deltas, not totals):
 * each incoming (publish) session's added duration and bytes, and the node's internode and outgoing bytes.
 * Upload is what the peer sent to the node, download what the node sent to the peer.
 * The usage is accounted to the hour of `at` (the time of arrival when absent or in the future).
 */
export const UsageReport = z.strictObject({
  id: reportId,
  at: Timestamp.optional(),
  kind: z.literal('usage'),
  streamId: Id,
  incoming: z
    .array(
      z.strictObject({
        sessionId: z.string().min(1, 'sessionId is required').max(128, 'sessionId must be at most 128 characters'),
        startedAt: Timestamp,
        duration: seconds('duration'),
        upload: bytes('upload'),
        download: bytes('download'),
      }),
    )
    .max(USAGE_SESSIONS_MAX, `At most ${USAGE_SESSIONS_MAX} incoming sessions per report`)
    .optional(),
  internode: TrafficDelta.optional(),
  outgoing: TrafficDelta.optional(),
  /**
   * What the node did with the stream in the interval: Transcode while a transcoding ladder ran, else
   * Passthrough. Absent: by the stream's kind (an adjustable-transcode stream is Transcode).
   */
  processing: ProcessingType.optional(),
});
export type UsageReport = z.infer<typeof UsageReport>;

const metricValue = (name: string) =>
  z
    .number({ error: `${name} must be a number` })
    .min(0, `${name} must be at least 0`)
    .max(1e15);

/** One sample of each metric a node measures for a stream (bitrates in bits per second, RTT in ms). */
export const NodeMetricValues = z.strictObject(
  Object.fromEntries(NODE_METRIC_NAMES.map((name) => [name, metricValue(name).optional()])) as Record<
    NodeMetricName,
    z.ZodOptional<z.ZodNumber>
  >,
);

/**
 * Metric samples at one instant, per stream, labelled by the reporting node and a location (the node's
 * location code unless given), plus the stream's concurrent sessions on the node (publishers and viewers).
 */
export const MetricsReport = z.strictObject({
  id: reportId,
  at: Timestamp.optional(),
  kind: z.literal('metrics'),
  location: z.string().max(LOCATION_LABEL_MAX, `location must be at most ${LOCATION_LABEL_MAX} characters`).optional(),
  streams: z
    .array(
      z.strictObject({
        streamId: Id,
        location: z
          .string()
          .max(LOCATION_LABEL_MAX, `location must be at most ${LOCATION_LABEL_MAX} characters`)
          .optional(),
        sessions: z.number().int('sessions must be a whole number').min(0, 'sessions must be at least 0').optional(),
        values: NodeMetricValues.default({}),
      }),
    )
    .min(1, 'At least one stream is required')
    .max(METRICS_STREAMS_MAX, `At most ${METRICS_STREAMS_MAX} streams per report`),
});
export type MetricsReport = z.infer<typeof MetricsReport>;

// ---------------------------------------------------------------- statistics answers

const UsageNode = { nodeId: Id, node: z.string() };

/** One incoming (publish) session within the window. */
export const IncomingUsage = z.object({
  sessionId: z.string(),
  ...UsageNode,
  /** When the session started (ISO). */
  started: Timestamp,
  /** When the node last reported it within the window (ISO). */
  ended: Timestamp,
  /** Seconds within the window. */
  duration: z.number(),
  upload: z.number(),
  download: z.number(),
});
export type IncomingUsage = z.infer<typeof IncomingUsage>;

/** Internode or outgoing traffic of a stream on one node within the window. */
export const NodeUsage = z.object({ ...UsageNode, duration: z.number(), upload: z.number(), download: z.number() });
export type NodeUsage = z.infer<typeof NodeUsage>;

export const StreamUsage = z.object({
  streamId: Id,
  /** The stream's caption (the last one known when the stream was deleted). */
  caption: z.string().nullable(),
  accountId: Id,
  protocol: StatisticProtocol,
  processing: ProcessingType,
  /** Seconds of incoming sessions within the window. */
  duration: z.number(),
  incoming: z.array(IncomingUsage),
  internode: z.array(NodeUsage),
  outgoing: z.array(NodeUsage),
});
export type StreamUsage = z.infer<typeof StreamUsage>;

export const StatisticsResponse = z.object({
  streams: z.array(StreamUsage),
  /** The peak of concurrent sessions (publishers and viewers) within the window. */
  concurrentSessions: z.number(),
});
export type StatisticsResponse = z.infer<typeof StatisticsResponse>;

export const StreamStatisticsResponse = z.object({ streams: z.array(StreamUsage) });
export type StreamStatisticsResponse = z.infer<typeof StreamStatisticsResponse>;

export const MetricSeries = z.object({
  metric: z.object({ labels: z.object({ name: z.string(), location: z.string().optional() }) }),
  /** [time in seconds, value] pairs, oldest first; a time without data has no pair. */
  values: z.array(z.tuple([z.number(), z.number()])),
});
export type MetricSeries = z.infer<typeof MetricSeries>;

export const MetricsResponse = z.object({ result: z.array(MetricSeries) });
export type MetricsResponse = z.infer<typeof MetricsResponse>;

// ---------------------------------------------------------------- requests

/** from and to: ISO timestamps, from ≤ to, at most 92 days apart (also the viewer analytics' window). */
export const windowRule = (value: { from: string; to: string }, ctx: z.RefinementCtx) => {
  const from = Date.parse(value.from);
  const to = Date.parse(value.to);
  if (Number.isNaN(from) || Number.isNaN(to)) return;
  if (to < from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must not be before from' });
  else if (to - from > MAX_WINDOW_MS) {
    ctx.addIssue({
      code: 'custom',
      path: ['to'],
      message: `The window from from to to must be at most ${STATISTICS_MAX_WINDOW_DAYS} days`,
    });
  }
};
export const windowTimestamp = (field: string) =>
  z.iso.datetime({ offset: true, error: `${field} must be an ISO timestamp` });

export const WindowParams = z
  .strictObject({ from: windowTimestamp('from'), to: windowTimestamp('to') })
  .superRefine(windowRule);
export const StreamWindowParams = z
  .strictObject({ streamId: Id, from: windowTimestamp('from'), to: windowTimestamp('to') })
  .superRefine(windowRule);
export const AccountWindowParams = z
  .strictObject({ accountId: Id, from: windowTimestamp('from'), to: windowTimestamp('to') })
  .superRefine(windowRule);

const metricList = (allowed: readonly string[]) =>
  z
    .string()
    .regex(
      new RegExp(`^(${allowed.join('|')})(,(${allowed.join('|')}))*$`),
      `metrics must be a comma-separated list of: ${allowed.join(', ')}`,
    );

export const StatisticsQuery = z.strictObject({
  /** ADMIN: one account (all when absent); USER: only its own (another → 404). */
  account: Id.optional(),
  protocol: StatisticProtocol.optional(),
  processing: ProcessingType.optional(),
  /** Metric series instead of usage: one or more names, comma-separated. */
  metrics: metricList(ACCOUNT_METRICS).optional(),
});
export type StatisticsQuery = z.infer<typeof StatisticsQuery>;

export const StreamStatisticsQuery = z.strictObject({
  account: Id.optional(),
  protocol: StatisticProtocol.optional(),
  processing: ProcessingType.optional(),
  metrics: metricList(STATISTIC_METRICS).optional(),
});

export const AccountMetricsQuery = z.strictObject({
  protocol: StatisticProtocol.optional(),
  processing: ProcessingType.optional(),
  metrics: metricList(ACCOUNT_METRICS),
});

export const splitMetrics = (value: string) => value.split(',') as StatisticMetric[];

/**
 * What every statistics read shares: a signed-in caller (USER: its own streams only; ADMIN: any), and its
 * answers besides 200 — a bad window or metric (400), a stream or account not the caller's (404), the metrics
 * store unreachable (502).
 */
const STATISTICS_READ = {
  method: 'GET' as const,
  tag: 'statistics',
  auth: 'user' as const,
  errors: [400, 404, 502],
};

export const statisticsRoutes = {
  usage: defineRoute({
    ...STATISTICS_READ,
    path: '/statistics/stream/from/:from/to/:to',
    summary:
      'Usage of every stream of the caller (ADMIN: every account, or ?account=) within the window: ' +
      '{streams, concurrentSessions}. With ?metrics= (IncomingTotal, IncomingByOutputType, ViewersTotal, ' +
      'OutgoingBitrateTotal, ConcurrentViewersTotal; comma-separated) the metric series instead: {result}. ' +
      'Usage is counted per hour: the window covers every hour it touches. At most 92 days.',
    params: WindowParams,
    query: StatisticsQuery,
    response: z.union([StatisticsResponse, MetricsResponse]),
  }),
  streamUsage: defineRoute({
    ...STATISTICS_READ,
    path: '/statistics/stream/:streamId/from/:from/to/:to',
    summary:
      'Usage of one stream (also after it was deleted) within the window: {streams}. With ?metrics= (any metric ' +
      'name or grouping, comma-separated) its metric series instead: {result}, one series per name and location.',
    params: StreamWindowParams,
    query: StreamStatisticsQuery,
    response: z.union([StreamStatisticsResponse, MetricsResponse]),
  }),
  accountMetrics: defineRoute({
    ...STATISTICS_READ,
    path: '/statistics/account/:accountId/metrics/from/:from/to/:to',
    summary:
      "Metric series of one account's streams (USER: only its own, else 404): ?metrics= IncomingTotal, " +
      'IncomingByOutputType, ViewersTotal, OutgoingBitrateTotal or ConcurrentViewersTotal (comma-separated).',
    params: AccountWindowParams,
    query: AccountMetricsQuery,
    response: MetricsResponse,
  }),
};

/** Where Prometheus scrapes the control plane (outside /api/v1), with `Authorization: Bearer <METRICS_TOKEN>`. */
export const METRICS_SCRAPE_PATH = '/metrics';
