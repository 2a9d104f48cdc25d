import type { BeaconBatch, ViewerAnalytics, ViewerSessionDetail, ViewerSessionList } from '@streamcloud/contract';
import { VIEWER_SESSION_LIST_MAX } from '@streamcloud/contract';
import type { Scope } from '../../db/unit-of-work.js';
import type { AuthContext } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { forbidden, notFound, tooManyRequests } from '../../lib/errors.js';
import { prometheusLabels } from '../statistics/index.js';
import { type AnalyticsScope, type RolledHours, SESSION_SPAN_MAX_MS } from './analytics.repository.js';
import { minuteDeltas, summarize, toEventRow } from './beacon-batch.js';
import { percentilesOf } from './histogram.js';
import type { RateWindow } from './rate-window.js';
import { classifyUserAgent } from './user-agent.js';
import { EVERY_ACCOUNT } from './viewer-rollups.repository.js';
import type { ViewerSessionCredentials } from './viewer-session-credential.js';
import { toSummary, toTimelineEvent } from './viewer-session-view.js';
import {
  errorShare,
  largestGroups,
  readWindowFigures,
  rebufferShare,
  toViewerAnalytics,
  type WindowFigures,
} from './window-figures.js';

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
        ['RebufferRatio', rebufferShare(row) ?? 0],
        ['ErrorRate', errorShare(row) ?? 0],
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
    const span = { from: new Date(window.from), to: new Date(window.to) };
    // A stream's window reads its own sessions (an index range of one stream); accounts' windows use the rollups.
    const rolled = scope === 'all' || !('streamId' in scope) ? await this.rolledHoursOf(span.from, span.to) : null;
    const figures =
      rolled && (scope === 'all' || !('streamId' in scope))
        ? await this.rolledFigures(scope, span.from, span.to, rolled)
        : await readWindowFigures(this.deps.uow.analytics, scope, span, GROUPS_PER_DIMENSION);
    return toViewerAnalytics(span, figures);
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
