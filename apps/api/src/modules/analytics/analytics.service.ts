import type {
  AnalyticsGroup,
  BeaconBatch,
  BeaconEvent,
  TimelineEvent,
  ViewerAnalytics,
  ViewerSessionDetail,
  ViewerSessionList,
  ViewerSessionSummary,
} from '@streamcloud/contract';
import { VIEWER_SESSION_LIST_MAX } from '@streamcloud/contract';
import type { Scope } from '../../db/unit-of-work.js';
import type { AuthContext } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { forbidden, notFound, tooManyRequests } from '../../lib/errors.js';
import { prometheusLabels } from '../statistics/index.js';
import {
  type AnalyticsScope,
  type GroupFigures,
  type MinuteFigures,
  type RolledHours,
  SESSION_SPAN_MAX_MS,
  type SessionFigures,
  type ViewerEventRow,
  type ViewerMinuteDelta,
  type ViewerSessionRow,
} from './analytics.repository.js';
import { percentilesOf } from './histogram.js';
import type { RateWindow } from './rate-window.js';
import { classifyUserAgent } from './user-agent.js';
import { EVERY_ACCOUNT } from './viewer-rollups.repository.js';
import type { ViewerSessionCredentials } from './viewer-session-credential.js';

export interface AnalyticsServiceDeps {
  uow: Scope<'analytics' | 'viewerRollups' | 'access'>;
  clock: Clock;
  credentials: ViewerSessionCredentials;
  /** The country of an address (GeoLite2), null when unknown (private, loopback, not in the database). */
  countryOf: (address: string) => string | null;
  limits: { perSession: RateWindow; perOutput: RateWindow };
  /** How long events, sessions and minutes are kept (ms). */
  retentionMs: number;
}

/** Who sent a beacon, as the request tells it; the address is looked up and never kept. */
export interface BeaconClient {
  address: string;
  userAgent: string | undefined;
}

/** Values a breakdown answers per dimension at most (the largest by viewers). */
const GROUPS_PER_DIMENSION = 20;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** Hours one run of the rollup job rolls at most (a week: a new database's backlog in a few runs). */
const ROLLUP_HOURS_PER_RUN = 168;

/** How long an output's stream and account are kept for its beacons, and for how many outputs at most. */
const OUTPUT_FACTS_TTL_MS = 10_000;
const OUTPUT_FACTS_MAX = 10_000;

/** The window of the Prometheus series: recent enough to alert on, long enough to hold a few samples. */
const EXPOSITION_WINDOW_MS = 5 * MINUTE_MS;
export const QUALITY_FAMILY = 'streamcloud_viewer_quality';

/**
 * The viewer beacon (issue 37): a player's quality events, bound to a viewer session this API issued for the
 * output, filed under the output's stream and account; and the analytics read from them.
 */
export class AnalyticsService {
  private readonly outputOwners = new Map<string, { owner: { streamId: string; ownerId: string }; until: number }>();

  constructor(private readonly deps: AnalyticsServiceDeps) {}

  /**
   * The output's stream and account, kept OUTPUT_FACTS_TTL_MS: a viewer's every batch names them, and they change
   * only when the output is deleted (its beacons are then still taken for those seconds, filed where it was).
   */
  private async ownerOf(outputId: string): Promise<{ streamId: string; ownerId: string } | null> {
    const now = this.deps.clock.now().getTime();
    const kept = this.outputOwners.get(outputId);
    if (kept && kept.until > now) return kept.owner;
    const facts = await this.deps.uow.access.find('output', outputId);
    if (!facts?.ownerId || !facts.streamId) return null;
    const owner = { streamId: facts.streamId, ownerId: facts.ownerId };
    // Bounded: emptied when full (a new read each for the outputs still beaconing).
    if (this.outputOwners.size >= OUTPUT_FACTS_MAX) this.outputOwners.clear();
    this.outputOwners.set(outputId, { owner, until: now + OUTPUT_FACTS_TTL_MS });
    return owner;
  }

  /** A new viewer session credential for the output's player (`GET /play/{id}`). */
  issueViewerSession(outputId: string): string {
    return this.deps.credentials.issue(outputId, this.deps.clock.now());
  }

  /**
   * Stores one batch, or nothing: a credential not issued for this output (forged, another output's, expired)
   * is a 403, a session or output over its rate a 429, an output that does not exist a 404.
   */
  async ingest(outputId: string, batch: BeaconBatch, client: BeaconClient): Promise<void> {
    const { uow, clock, credentials, limits } = this.deps;
    const now = clock.now();
    const sessionId = credentials.verify(batch.session, outputId, now);
    if (!sessionId) throw forbidden('The viewer session is not one this API issued for this output');
    // Per session first: one player resending in a loop must not spend its output's budget.
    if (!limits.perSession.take(sessionId, now.getTime())) {
      throw tooManyRequests('Too many beacons for this session', limits.perSession.retryAfterSeconds(now.getTime()));
    }
    if (!limits.perOutput.take(outputId, now.getTime())) {
      throw tooManyRequests('Too many beacons for this output', limits.perOutput.retryAfterSeconds(now.getTime()));
    }
    const output = await this.ownerOf(outputId);
    if (!output) throw notFound('Output');
    // The player's clock places events relative to its session's start; no wall clock of the player is trusted.
    // Each batch places that start as its arrival less its `sentAt` (the session keeps the earliest), which
    // spares reading the session first; batches differ by their network delay only.
    const startedAt = new Date(now.getTime() - batch.sentAt);
    const timeOf = (at: number) => new Date(Math.min(now.getTime(), startedAt.getTime() + at));
    const { browser, os, device } = classifyUserAgent(client.userAgent);
    const summary = summarize(batch.events);
    const lastAt = new Date(Math.max(...batch.events.map((event) => timeOf(event.at).getTime())));
    const events = batch.events.map((event) => toEventRow(sessionId, timeOf(event.at), event));
    const minutes = minuteDeltas(batch, timeOf, { streamId: output.streamId, accountId: output.ownerId });
    await uow.analytics.record(
      {
        id: sessionId,
        output_id: outputId,
        input_id: output.streamId,
        account_id: output.ownerId,
        player: batch.player,
        browser,
        os,
        device,
        country: this.deps.countryOf(client.address) ?? 'unknown',
        started_at: startedAt,
        last_at: lastAt,
        ...summary,
      },
      events,
      minutes,
    );
  }

  /** A stream's analytics over the window: its account or an ADMIN (404 otherwise). */
  async stream(auth: AuthContext, streamId: string, window: { from: string; to: string }): Promise<ViewerAnalytics> {
    await this.deps.uow.access.require(auth, 'stream', streamId);
    return this.analytics({ streamId }, window);
  }

  /** An account's analytics: a USER's own, an ADMIN's named account or every account. */
  async account(auth: AuthContext, query: { from: string; to: string; account?: string }): Promise<ViewerAnalytics> {
    const accountId = this.deps.uow.access.accountScope(auth, query.account);
    return this.analytics(accountId === null ? 'all' : { accountId }, query);
  }

  async sessions(
    auth: AuthContext,
    streamId: string,
    window: { from: string; to: string },
  ): Promise<ViewerSessionList> {
    await this.deps.uow.access.require(auth, 'stream', streamId);
    const rows = await this.deps.uow.analytics.latestSessions(
      streamId,
      new Date(window.from),
      new Date(window.to),
      VIEWER_SESSION_LIST_MAX,
    );
    return { sessions: rows.map(toSummary) };
  }

  async session(auth: AuthContext, id: string): Promise<ViewerSessionDetail> {
    const { uow } = this.deps;
    await uow.access.require(auth, 'viewerSession', id);
    const row = await uow.analytics.getSession(id);
    if (!row) throw notFound('Viewer session');
    const timeline = await uow.analytics.timeline(id);
    return { ...toSummary(row), timeline: timeline.map(toTimelineEvent) };
  }

  /**
   * The Prometheus series (`/metrics`): per stream with viewers in the last 5 minutes, its figures over those 5
   * minutes as one gauge family, `streamcloud_viewer_quality{account,stream,name}`.
   */
  async exposition(): Promise<string[]> {
    const now = this.deps.clock.now();
    const rows = await this.deps.uow.analytics.figuresByStream(new Date(now.getTime() - EXPOSITION_WINDOW_MS), now);
    const lines = [
      `# HELP ${QUALITY_FAMILY} Viewer quality of experience per stream over the last 5 minutes, from the players' beacons (previews apart): Viewers (sessions), WatchSeconds, RebufferCount, RebufferRatio and ErrorRate (0-1), Startup/Ttff/Latency median and p95 in ms.`,
      `# TYPE ${QUALITY_FAMILY} gauge`,
    ];
    for (const row of rows) {
      if (row.viewers === 0) continue;
      const values: Array<[string, number | null]> = [
        ['Viewers', row.viewers],
        ['WatchSeconds', row.watchMs / 1000],
        ['RebufferCount', row.rebufferCount],
        ['RebufferRatio', ratio(row.rebufferMs, row.watchMs + row.rebufferMs)],
        ['ErrorRate', ratio(row.erroredViewers, row.viewers)],
        ['StartupMedianMs', row.startupMedian],
        ['StartupP95Ms', row.startupP95],
        ['TtffMedianMs', row.ttffMedian],
        ['TtffP95Ms', row.ttffP95],
        ['LatencyMedianMs', row.latencyMedian],
        ['LatencyP95Ms', row.latencyP95],
      ];
      for (const [name, value] of values) {
        if (value === null) continue;
        lines.push(
          `${QUALITY_FAMILY}${prometheusLabels({ account: row.accountId, stream: row.streamId, name })} ${value}`,
        );
      }
    }
    return lines;
  }

  /** Drops events, sessions, minutes and hourly rollups past the retention period (the periodic job). */
  async expire(): Promise<void> {
    const before = new Date(this.deps.clock.now().getTime() - this.deps.retentionMs);
    await this.deps.uow.analytics.expire(before);
    await this.deps.uow.viewerRollups.expire(before);
  }

  /**
   * Rolls up the hours that can no longer change (their sessions' beacons all came: SESSION_SPAN_MAX_MS after
   * the hour), from where the rolling stands, at most ROLLUP_HOURS_PER_RUN a run, each on its own transaction
   * (the periodic job). Answers how many hours it rolled.
   */
  async rollUp(): Promise<number> {
    const { uow, clock } = this.deps;
    const final = clock.now().getTime() - SESSION_SPAN_MAX_MS - HOUR_MS;
    const firstFinal = new Date(Math.floor(final / HOUR_MS) * HOUR_MS);
    let hour = ((await uow.viewerRollups.rolled()) ?? (await uow.viewerRollups.start(firstFinal))).until;
    let rolled = 0;
    while (hour.getTime() <= final && rolled < ROLLUP_HOURS_PER_RUN) {
      const at = hour;
      if (!(await uow.transaction((tx) => tx.viewerRollups.rollHour(at)))) break;
      rolled += 1;
      hour = new Date(hour.getTime() + HOUR_MS);
    }
    return rolled;
  }

  /** The whole hours of an account's or every account's window that are rolled up; null: none. */
  private async rolledHoursOf(from: Date, to: Date): Promise<RolledHours | null> {
    const rolled = await this.deps.uow.viewerRollups.rolled();
    if (!rolled) return null;
    const first = Math.max(Math.ceil(from.getTime() / HOUR_MS) * HOUR_MS, rolled.from.getTime());
    const last = Math.min(Math.floor(to.getTime() / HOUR_MS) * HOUR_MS, rolled.until.getTime());
    return last > first ? { from: new Date(first), to: new Date(last) } : null;
  }

  private async analytics(scope: AnalyticsScope, window: { from: string; to: string }): Promise<ViewerAnalytics> {
    const from = new Date(window.from);
    const to = new Date(window.to);
    // A stream's window reads its own sessions (an index range of one stream); accounts' windows use the rollups.
    const rolled = scope === 'all' || !('streamId' in scope) ? await this.rolledHoursOf(from, to) : null;
    const figures =
      rolled && (scope === 'all' || !('streamId' in scope))
        ? await this.rolledFigures(scope, from, to, rolled)
        : await this.rawFigures(scope, from, to);
    const breakdown = (dimension: GroupFigures['dimension']): AnalyticsGroup[] =>
      figures.groups
        .filter((group) => group.dimension === dimension)
        .map((group) => ({
          value: group.value,
          viewers: group.viewers,
          watchMs: group.watchMs,
          rebufferRatio: ratio(group.rebufferMs, group.watchMs + group.rebufferMs),
        }));
    const { sessions, minutes } = figures;
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      viewers: sessions.viewers,
      previews: sessions.previews,
      watchMs: minutes.watchMs,
      rebufferCount: minutes.rebufferCount,
      rebufferRatio: ratio(minutes.rebufferMs, minutes.watchMs + minutes.rebufferMs),
      errorRate: ratio(sessions.erroredViewers, sessions.viewers),
      startupMs: { median: sessions.startupMedian, p95: sessions.startupP95 },
      ttffMs: { median: sessions.ttffMedian, p95: sessions.ttffP95 },
      latencyMs: { median: sessions.latencyMedian, p95: sessions.latencyP95 },
      breakdowns: {
        country: breakdown('country'),
        browser: breakdown('browser'),
        device: breakdown('device'),
        rendition: breakdown('rendition'),
      },
    };
  }

  /** A window's figures from its sessions and minutes (a stream's, or a window without rolled hours): exact. */
  private async rawFigures(scope: AnalyticsScope, from: Date, to: Date): Promise<WindowFigures> {
    const { analytics } = this.deps.uow;
    const [sessions, minutes, groups] = await Promise.all([
      analytics.sessionFigures(scope, from, to),
      analytics.minuteFigures(scope, from, to),
      analytics.groupFigures(scope, from, to, GROUPS_PER_DIMENSION),
    ]);
    return { sessions, minutes, groups };
  }

  /**
   * An account's or every account's window over rolled hours: the rollups of those hours plus the sessions and
   * minutes of its edges, added up. Counts and sums are exact; the percentiles come from bucket counts (within
   * half a bucket, ±5 %).
   */
  private async rolledFigures(
    scope: Exclude<AnalyticsScope, { streamId: string }>,
    from: Date,
    to: Date,
    rolled: RolledHours,
  ): Promise<WindowFigures> {
    const { analytics, viewerRollups } = this.deps.uow;
    const account = scope === 'all' ? EVERY_ACCOUNT : scope.accountId;
    const [counts, buckets, minutes, groups, hours, hourBuckets, hourGroups] = await Promise.all([
      analytics.sessionCounts(scope, from, to, rolled),
      analytics.sessionBuckets(scope, from, to, rolled),
      analytics.minuteFigures(scope, from, to, rolled),
      analytics.groupFigures(scope, from, to, Number.MAX_SAFE_INTEGER, rolled),
      viewerRollups.figures(account, rolled),
      viewerRollups.buckets(account, rolled),
      viewerRollups.groups(account, rolled),
    ]);
    const allBuckets = [...buckets, ...hourBuckets];
    const percentiles = (metric: 'startup' | 'ttff' | 'latency') =>
      percentilesOf(allBuckets.filter((count) => count.metric === metric));
    const startup = percentiles('startup');
    const ttff = percentiles('ttff');
    const latency = percentiles('latency');
    return {
      sessions: {
        viewers: counts.viewers + hours.viewers,
        previews: counts.previews + hours.previews,
        erroredViewers: counts.erroredViewers + hours.erroredViewers,
        startupMedian: startup.median,
        startupP95: startup.p95,
        ttffMedian: ttff.median,
        ttffP95: ttff.p95,
        latencyMedian: latency.median,
        latencyP95: latency.p95,
      },
      minutes: {
        watchMs: minutes.watchMs + hours.watchMs,
        rebufferMs: minutes.rebufferMs + hours.rebufferMs,
        rebufferCount: minutes.rebufferCount + hours.rebufferCount,
      },
      groups: largestGroups([...groups, ...hourGroups], GROUPS_PER_DIMENSION),
    };
  }
}

/** What a window's answer is made of. */
interface WindowFigures {
  sessions: SessionFigures;
  minutes: MinuteFigures;
  groups: GroupFigures[];
}

/** The groups of several sources added up by dimension and value, the `perDimension` largest by viewers of each. */
function largestGroups(groups: GroupFigures[], perDimension: number): GroupFigures[] {
  const byKey = new Map<string, GroupFigures>();
  for (const group of groups) {
    const key = `${group.dimension}\u0000${group.value}`;
    const sum = byKey.get(key);
    if (!sum) byKey.set(key, { ...group });
    else {
      sum.viewers += group.viewers;
      sum.watchMs += group.watchMs;
      sum.rebufferMs += group.rebufferMs;
    }
  }
  const sorted = [...byKey.values()].sort(
    (a, b) => b.viewers - a.viewers || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0),
  );
  const taken = new Map<string, number>();
  return sorted.filter((group) => {
    const count = taken.get(group.dimension) ?? 0;
    taken.set(group.dimension, count + 1);
    return count < perDimension;
  });
}

const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : 0);

/** A batch's figures as its session adds them up. */
function summarize(events: BeaconEvent[]) {
  const summary = {
    startup_ms: null as number | null,
    ttff_ms: null as number | null,
    watch_ms: 0,
    rebuffer_count: 0,
    rebuffer_ms: 0,
    error_count: 0,
    latency_sum_ms: 0,
    latency_samples: 0,
    rendition_switches: 0,
    rendition_height: null as number | null,
    rendition_bitrate: null as number | null,
    event_count: events.length,
  };
  let renditionAt = -1;
  for (const event of events) {
    switch (event.type) {
      case 'startup':
        summary.startup_ms ??= event.startupMs;
        summary.ttff_ms ??= event.ttffMs;
        break;
      case 'watch':
        summary.watch_ms += event.watchedMs;
        break;
      case 'rebuffer':
        summary.rebuffer_count += 1;
        summary.rebuffer_ms += event.durationMs;
        break;
      case 'error':
        summary.error_count += 1;
        break;
      case 'latency':
        summary.latency_sum_ms += event.latencyMs;
        summary.latency_samples += 1;
        break;
      case 'rendition':
        summary.rendition_switches += 1;
        // The latest rendition of the batch is the one now played.
        if (event.at >= renditionAt) {
          renditionAt = event.at;
          summary.rendition_height = event.height;
          summary.rendition_bitrate = event.bitrate;
        }
        break;
    }
  }
  return summary;
}

/** The batch's additive figures per minute of the server's clock, for the stream's minute rollup. */
function minuteDeltas(
  batch: BeaconBatch,
  timeOf: (at: number) => Date,
  owner: { streamId: string; accountId: string },
): ViewerMinuteDelta[] {
  const byMinute = new Map<number, ViewerMinuteDelta>();
  for (const event of batch.events) {
    const minute = Math.floor(timeOf(event.at).getTime() / MINUTE_MS) * MINUTE_MS;
    let row = byMinute.get(minute);
    if (!row) {
      row = {
        input_id: owner.streamId,
        minute: new Date(minute),
        player: batch.player,
        account_id: owner.accountId,
        watch_ms: 0,
        rebuffer_ms: 0,
        rebuffer_count: 0,
        error_count: 0,
        latency_sum_ms: 0,
        latency_samples: 0,
        event_count: 0,
      };
      byMinute.set(minute, row);
    }
    row.event_count += 1;
    if (event.type === 'watch') row.watch_ms += event.watchedMs;
    if (event.type === 'rebuffer') {
      row.rebuffer_ms += event.durationMs;
      row.rebuffer_count += 1;
    }
    if (event.type === 'error') row.error_count += 1;
    if (event.type === 'latency') {
      row.latency_sum_ms += event.latencyMs;
      row.latency_samples += 1;
    }
  }
  return [...byMinute.values()];
}

function toEventRow(sessionId: string, at: Date, event: BeaconEvent): ViewerEventRow {
  const row = (value: number | null, detail: string | null): ViewerEventRow => ({
    session_id: sessionId,
    at,
    type: event.type,
    value,
    detail,
  });
  switch (event.type) {
    case 'startup':
      return row(event.ttffMs, `startup ${event.startupMs} ms`);
    case 'rebuffer':
      return row(event.durationMs, null);
    case 'latency':
      return row(event.latencyMs, null);
    case 'error':
      return row(null, event.message ? `${event.kind}: ${event.message}` : event.kind);
    case 'rendition':
      return row(event.bitrate, `${event.width}x${event.height}`);
    case 'watch':
      return row(event.watchedMs, null);
  }
}

function toSummary(row: ViewerSessionRow): ViewerSessionSummary {
  return {
    id: row.id,
    streamId: row.input_id,
    outputId: row.output_id,
    player: row.player,
    startedAt: row.started_at.toISOString(),
    lastSeenAt: row.last_at.toISOString(),
    browser: row.browser,
    os: row.os,
    device: row.device,
    country: row.country,
    startupMs: row.startup_ms,
    ttffMs: row.ttff_ms,
    watchMs: row.watch_ms,
    rebufferCount: row.rebuffer_count,
    rebufferMs: row.rebuffer_ms,
    errors: row.error_count,
    latencyMs: row.latency_samples > 0 ? row.latency_sum_ms / row.latency_samples : null,
    rendition: row.rendition_height === null ? null : `${row.rendition_height}p`,
  };
}

const toTimelineEvent = (row: ViewerEventRow): TimelineEvent => ({
  at: row.at.toISOString(),
  type: row.type as TimelineEvent['type'],
  value: row.value,
  detail: row.detail,
});
