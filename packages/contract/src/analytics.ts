import { z } from 'zod';
import { Id, IdParams, Timestamp } from './common.js';
import { defineRoute } from './routes.js';
import { windowRule, windowTimestamp } from './statistics.js';

// ---------------------------------------------------------------- the viewer beacon (issue 37)

/** The largest beacon body the API reads (bytes); a bigger one is a 413. */
export const BEACON_MAX_BYTES = 16 * 1024;
/** Events in one beacon batch at most. */
export const BEACON_MAX_EVENTS = 100;
/** The longest a playback session is followed (ms after its start): its viewer session credential's life. */
export const VIEWER_SESSION_MAX_MS = 12 * 3600 * 1000;

/** Milliseconds since the player's session started, on the player's own clock (no wall clock is trusted). */
const sessionTime = (field: string) =>
  z
    .number(`${field} must be a number`)
    .int(`${field} must be a whole number`)
    .min(0, `${field} must be at least 0`)
    .max(VIEWER_SESSION_MAX_MS, `${field} must be at most ${VIEWER_SESSION_MAX_MS}`);

/** A duration in milliseconds, at most 10 minutes (one stall, one startup, one latency sample). */
const durationMs = (field: string) =>
  z
    .number(`${field} must be a number`)
    .int(`${field} must be a whole number`)
    .min(0, `${field} must be at least 0`)
    .max(600_000, `${field} must be at most 600000`);

/** What went wrong, as the player can tell it. */
export const PlaybackErrorKind = z.enum(['network', 'media', 'decode', 'access', 'signalling', 'other']);
export type PlaybackErrorKind = z.infer<typeof PlaybackErrorKind>;

/**
 * One event of a playback session:
 * - `startup`: the player's start to the playback answer (`startupMs`: WHEP answer, HLS playlist) and to the
 *   first frame shown (`ttffMs`);
 * - `rebuffer`: one stall that began at `at` and lasted `durationMs` (one still going when the page leaves is
 *   sent with its length so far);
 * - `latency`: a sample of the latency to live;
 * - `error`: a playback error and its kind;
 * - `rendition`: the rendition now played (the first one, then each switch);
 * - `watch`: time played (frames moving) since the previous `watch` event.
 */
export const BeaconEvent = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('startup'),
    at: sessionTime('at'),
    startupMs: durationMs('startupMs'),
    ttffMs: durationMs('ttffMs'),
  }),
  z.strictObject({ type: z.literal('rebuffer'), at: sessionTime('at'), durationMs: durationMs('durationMs') }),
  z.strictObject({ type: z.literal('latency'), at: sessionTime('at'), latencyMs: durationMs('latencyMs') }),
  z.strictObject({
    type: z.literal('error'),
    at: sessionTime('at'),
    kind: PlaybackErrorKind,
    message: z.string().max(200, 'message must be at most 200 characters').optional(),
  }),
  z.strictObject({
    type: z.literal('rendition'),
    at: sessionTime('at'),
    width: z.number().int().min(0).max(16_384),
    height: z.number().int().min(0).max(16_384),
    bitrate: z.number().int().min(0).max(1_000_000_000),
  }),
  z.strictObject({ type: z.literal('watch'), at: sessionTime('at'), watchedMs: durationMs('watchedMs') }),
]);
export type BeaconEvent = z.infer<typeof BeaconEvent>;

/** Which player sent a beacon: the embeddable page, or the console's preview (kept apart from viewers). */
export const BeaconPlayer = z.enum(['embed', 'preview']);
export type BeaconPlayer = z.infer<typeof BeaconPlayer>;

/**
 * A batch of one playback session's events. `session` is the viewer session credential `GET /play/{id}`
 * gave the player (`viewerSession`); `sentAt` is the player's session time when it sent the batch, which
 * places the events on the server's clock.
 */
export const BeaconBatch = z.strictObject({
  session: z.string().min(1, 'session is required').max(200, 'session must be at most 200 characters'),
  player: BeaconPlayer,
  sentAt: sessionTime('sentAt'),
  events: z
    .array(BeaconEvent)
    .min(1, 'events must hold at least one event')
    .max(BEACON_MAX_EVENTS, `events must hold at most ${BEACON_MAX_EVENTS} events`),
});
export type BeaconBatch = z.infer<typeof BeaconBatch>;

// ---------------------------------------------------------------- analytics

/** A median and 95th percentile, in milliseconds; null without samples. */
export const Percentiles = z.object({ median: z.number().nullable(), p95: z.number().nullable() });
export type Percentiles = z.infer<typeof Percentiles>;

/** One value of a breakdown (a country code, a browser, a device class, a rendition such as `720p`). */
export const AnalyticsGroup = z.object({
  value: z.string(),
  viewers: z.number(),
  watchMs: z.number(),
  /** Stalled time over stalled plus played time, 0…1. */
  rebufferRatio: z.number(),
});
export type AnalyticsGroup = z.infer<typeof AnalyticsGroup>;

/**
 * The viewers' experience over a window: `viewers` are the playback sessions seen in it (previews apart);
 * `errorRate` is the share of those sessions with at least one error; `rebufferRatio` is stalled time over
 * stalled plus played time; startup, first frame and latency are per session (its first startup, its average
 * latency), then the median and 95th percentile over sessions.
 */
export const ViewerAnalytics = z.object({
  from: z.string(),
  to: z.string(),
  viewers: z.number(),
  previews: z.number(),
  watchMs: z.number(),
  rebufferCount: z.number(),
  rebufferRatio: z.number(),
  errorRate: z.number(),
  startupMs: Percentiles,
  ttffMs: Percentiles,
  latencyMs: Percentiles,
  breakdowns: z.object({
    country: z.array(AnalyticsGroup),
    browser: z.array(AnalyticsGroup),
    device: z.array(AnalyticsGroup),
    rendition: z.array(AnalyticsGroup),
  }),
});
export type ViewerAnalytics = z.infer<typeof ViewerAnalytics>;

/** One playback session as the analytics show it. */
export const ViewerSessionSummary = z.object({
  id: Id,
  streamId: Id,
  outputId: Id,
  player: BeaconPlayer,
  startedAt: z.string(),
  lastSeenAt: z.string(),
  browser: z.string(),
  os: z.string(),
  device: z.string(),
  /** ISO 3166 country code, or `unknown`. */
  country: z.string(),
  startupMs: z.number().nullable(),
  ttffMs: z.number().nullable(),
  watchMs: z.number(),
  rebufferCount: z.number(),
  rebufferMs: z.number(),
  errors: z.number(),
  latencyMs: z.number().nullable(),
  /** The rendition played last (`720p`), or null before one is known. */
  rendition: z.string().nullable(),
});
export type ViewerSessionSummary = z.infer<typeof ViewerSessionSummary>;

export const TimelineEvent = z.object({
  at: z.string(),
  type: z.enum(['startup', 'rebuffer', 'latency', 'error', 'rendition', 'watch']),
  /** The event's figure: ms for durations and latency, bits/s for a rendition; null for an error. */
  value: z.number().nullable(),
  /** An error's kind and message, a rendition's size. */
  detail: z.string().nullable(),
});
export type TimelineEvent = z.infer<typeof TimelineEvent>;

export const ViewerSessionDetail = ViewerSessionSummary.extend({ timeline: z.array(TimelineEvent) });
export type ViewerSessionDetail = z.infer<typeof ViewerSessionDetail>;

export const ViewerSessionList = z.object({ sessions: z.array(ViewerSessionSummary) });
export type ViewerSessionList = z.infer<typeof ViewerSessionList>;

/** The latest sessions a list answers at most. */
export const VIEWER_SESSION_LIST_MAX = 100;

// ---------------------------------------------------------------- quality alerts

/**
 * What a stream's quality rule watches, over its window, viewers only (previews apart): the rebuffer ratio and
 * the share of sessions with an error in percent, the 95th percentile of time to first frame, startup and
 * latency to live in milliseconds (as `ViewerAnalytics` computes them).
 */
export const QUALITY_METRICS = [
  'rebufferPercent',
  'errorPercent',
  'ttffP95Ms',
  'startupP95Ms',
  'latencyP95Ms',
] as const;
export const QualityMetric = z.enum(QUALITY_METRICS, {
  error: `metric must be one of ${QUALITY_METRICS.join(', ')}`,
});
export type QualityMetric = z.infer<typeof QualityMetric>;

/** The metrics measured in percent (0–100); the others are milliseconds. */
export const PERCENT_METRICS: ReadonlySet<QualityMetric> = new Set(['rebufferPercent', 'errorPercent']);
/** The largest threshold of a metric in milliseconds (the beacon's own bound of one duration). */
export const QUALITY_THRESHOLD_MAX_MS = 600_000;
/** The window a rule is judged over, in minutes. */
export const QUALITY_WINDOW_MINUTES = { min: 1, max: 60 } as const;
/**
 * Viewer sessions a window needs before its rule can hold: one viewer on a bad network must not page anybody
 * (fewer sessions: the stream is not Degraded).
 */
export const QUALITY_MIN_VIEWERS = 5;

/** A stream's quality rule as it is set: off by default. */
export const QualityRuleBody = z
  .strictObject({
    enabled: z.boolean('enabled must be true or false'),
    metric: QualityMetric,
    /** Degraded while the metric is above it: percent (0–100) or milliseconds, by the metric. */
    threshold: z.number('threshold must be a number').min(0, 'threshold must be at least 0'),
    windowMinutes: z
      .number('windowMinutes must be a number')
      .int('windowMinutes must be a whole number')
      .min(QUALITY_WINDOW_MINUTES.min, `windowMinutes must be at least ${QUALITY_WINDOW_MINUTES.min}`)
      .max(QUALITY_WINDOW_MINUTES.max, `windowMinutes must be at most ${QUALITY_WINDOW_MINUTES.max}`),
  })
  .superRefine((rule, context) => {
    const percent = PERCENT_METRICS.has(rule.metric);
    const max = percent ? 100 : QUALITY_THRESHOLD_MAX_MS;
    if (rule.threshold > max) {
      context.addIssue({
        code: 'custom',
        path: ['threshold'],
        message: `threshold must be at most ${max} for ${rule.metric}${percent ? ' (a percentage)' : ' (milliseconds)'}`,
      });
    }
  });
export type QualityRuleBody = z.input<typeof QualityRuleBody>;

/** What a stream without a rule of its own answers: off, rebuffering above 2 % over 5 minutes once turned on. */
export const DEFAULT_QUALITY_RULE: QualityRuleBody = {
  enabled: false,
  metric: 'rebufferPercent',
  threshold: 2,
  windowMinutes: 5,
};

export const QualityState = z.enum(['OK', 'Degraded']);
export type QualityState = z.infer<typeof QualityState>;

/**
 * A stream's quality rule and where it stands: `state` is Degraded from the check that found the rule holding
 * (quality.degraded) to the one that found it no longer holding (quality.recovered); `since` is that check.
 */
export const QualityRule = z.object({
  streamId: Id,
  enabled: z.boolean(),
  metric: QualityMetric,
  threshold: z.number(),
  windowMinutes: z.number().int(),
  minViewers: z.number().int(),
  state: QualityState,
  since: Timestamp.nullable(),
  /** The last check: when, the metric's value (null without samples) and the window's viewer sessions. */
  checkedAt: Timestamp.nullable(),
  value: z.number().nullable(),
  viewers: z.number().int(),
});
export type QualityRule = z.infer<typeof QualityRule>;

export const AnalyticsWindowQuery = z
  .strictObject({ from: windowTimestamp('from'), to: windowTimestamp('to') })
  .superRefine(windowRule);
export const AccountAnalyticsQuery = z
  .strictObject({ from: windowTimestamp('from'), to: windowTimestamp('to'), account: Id.optional() })
  .superRefine(windowRule);

export const analyticsRoutes = {
  beacon: defineRoute({
    method: 'POST',
    path: '/play/:id/beacons',
    summary:
      "A batch of one playback session's quality events from the embeddable player or the console's preview; " +
      'public, bound to the viewer session `GET /play/{id}` issued (a forged one is a 403); at most 16 KiB (413) ' +
      'and 100 events, rate limited per session and per output (429). Nothing is stored from a refused batch.',
    tag: 'analytics',
    auth: 'public',
    params: IdParams,
    body: BeaconBatch,
    response: null,
    errors: [403, 404, 413, 429],
  }),
  stream: defineRoute({
    method: 'GET',
    path: '/inputs/:id/analytics',
    summary:
      "A stream's viewer experience over a window (at most 92 days): viewers, watch time, startup, " +
      'first frame, rebuffering, errors, latency, and breakdowns by country, browser, device and rendition',
    tag: 'analytics',
    auth: 'user',
    params: IdParams,
    query: AnalyticsWindowQuery,
    response: ViewerAnalytics,
    errors: [404],
  }),
  account: defineRoute({
    method: 'GET',
    path: '/analytics',
    summary:
      "The viewer experience over an account's streams in a window: a USER's own account, an ADMIN's named " +
      '`account` or every account',
    tag: 'analytics',
    auth: 'user',
    query: AccountAnalyticsQuery,
    response: ViewerAnalytics,
    errors: [404],
  }),
  sessions: defineRoute({
    method: 'GET',
    path: '/inputs/:id/analytics/sessions',
    summary: `A stream's latest playback sessions in a window (at most ${VIEWER_SESSION_LIST_MAX}), newest first`,
    tag: 'analytics',
    auth: 'user',
    params: IdParams,
    query: AnalyticsWindowQuery,
    response: ViewerSessionList,
    errors: [404],
  }),
  session: defineRoute({
    method: 'GET',
    path: '/analytics/sessions/:id',
    summary: 'One playback session with its timeline of events',
    tag: 'analytics',
    auth: 'user',
    params: IdParams,
    response: ViewerSessionDetail,
    errors: [404],
  }),
  qualityRule: defineRoute({
    method: 'GET',
    path: '/inputs/:id/quality-rule',
    summary:
      "A stream's quality rule (off until set) and whether it holds now (Degraded): quality.degraded and " +
      "quality.recovered go to the stream's callbackUri",
    tag: 'analytics',
    auth: 'user',
    params: IdParams,
    response: QualityRule,
    errors: [404],
  }),
  setQualityRule: defineRoute({
    method: 'PUT',
    path: '/inputs/:id/quality-rule',
    summary:
      "Set a stream's quality rule: the metric, the threshold it must stay under and the window in minutes; " +
      `judged only with at least ${QUALITY_MIN_VIEWERS} viewer sessions in the window`,
    tag: 'analytics',
    auth: 'user',
    params: IdParams,
    body: QualityRuleBody,
    response: QualityRule,
    errors: [404],
  }),
};
