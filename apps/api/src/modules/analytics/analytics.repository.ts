import { VIEWER_SESSION_MAX_MS } from '@streamcloud/contract';
import { type Insertable, type RawBuilder, type Selectable, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { ViewerEventsTable, ViewerMinutesTable, ViewerSessionsTable } from './analytics.table.js';

export type ViewerSessionRow = Selectable<ViewerSessionsTable>;
export type ViewerEventRow = Selectable<ViewerEventsTable>;
export type NewViewerSession = Insertable<ViewerSessionsTable>;
export type ViewerMinuteDelta = Insertable<ViewerMinutesTable>;

/** The viewer analytics' tables: written by beacons, read by no cached answer (db/response-cache.ts). */
export const VIEWER_TABLES: ReadonlySet<string> = new Set(['viewer_sessions', 'viewer_events', 'viewer_minutes']);

/** Whose sessions a read covers: one stream's, one account's, or every account's. */
export type AnalyticsScope = { streamId: string } | { accountId: string } | 'all';

/** The column and id of a stream's or an account's rows (viewer sessions and minutes both have both columns). */
const scopeColumn = (scope: Exclude<AnalyticsScope, 'all'>): ['input_id' | 'account_id', string] =>
  'streamId' in scope ? ['input_id', scope.streamId] : ['account_id', scope.accountId];

/**
 * The whole hours [from, to) a window reads from the hourly rollups: a raw read then leaves out the sessions that
 * started in them and the minutes within them.
 */
export interface RolledHours {
  from: Date;
  to: Date;
}

export interface SessionFigures {
  viewers: number;
  previews: number;
  erroredViewers: number;
  startupMedian: number | null;
  startupP95: number | null;
  ttffMedian: number | null;
  ttffP95: number | null;
  latencyMedian: number | null;
  latencyP95: number | null;
}

export interface MinuteFigures {
  watchMs: number;
  rebufferMs: number;
  rebufferCount: number;
}

export interface GroupFigures {
  dimension: 'country' | 'browser' | 'device' | 'rendition';
  value: string;
  viewers: number;
  watchMs: number;
  rebufferMs: number;
}

const num = (value: unknown): number => Number(value ?? 0);

export interface StreamFigures extends SessionFigures, MinuteFigures {
  streamId: string;
  accountId: string;
}

const viewer = sql<boolean>`player = 'embed'`;
const latency = sql`latency_sum_ms / nullif(latency_samples, 0)`;
/** A session's rendition as the breakdown names it: `720p`, or `unknown`. */
export const RENDITION = sql<string>`coalesce(rendition_height::text || 'p', 'unknown')`;
/** The per-session figures the percentiles are taken of, by the rollups' name. */
export const PERCENTILE_FIGURES = { startup: sql`startup_ms`, ttff: sql`ttff_ms`, latency } as const;
/**
 * The longest a session can be seen after its start: its credential lives VIEWER_SESSION_MAX_MS from its issue,
 * and its start is placed up to that much before a batch's arrival.
 */
export const SESSION_SPAN_MAX_MS = 2 * VIEWER_SESSION_MAX_MS;

/** Per-session figures are counted in logarithmic buckets, each this much wider than the one before. */
export const BUCKET_RATIO = 1.1;
/** The bucket of a value (ms, ≥ 0): the same in the rollups and in a raw read. */
export const bucketOf = (value: RawBuilder<unknown>) =>
  sql<number>`floor(ln(1 + ${value}) / ln(${sql.lit(BUCKET_RATIO)}))::int`;

/** How many of a window's viewer sessions fall in one bucket of one per-session figure. */
export interface BucketCount {
  metric: keyof typeof PERCENTILE_FIGURES;
  bucket: number;
  sessions: number;
}

export interface SessionCounts {
  viewers: number;
  previews: number;
  erroredViewers: number;
}
/** The median and 95th percentile of a per-session figure in one sort (an array of the two, or null). */
const medianAndP95 = <N extends string>(of: RawBuilder<unknown>, name: N) =>
  sql<unknown>`percentile_cont(array[0.5, 0.95]::float8[]) within group (order by ${of}) filter (where ${viewer})`.as(
    name,
  );

/** A float8[] as the driver answers it: an array (node-postgres, PGlite) or its text `{a,b}`. */
function pairOf(value: unknown): [number | null, number | null] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.replace(/[{}]/g, '').split(',') : [];
  const at = (index: number) => {
    const item = items[index];
    return item === undefined || item === null || item === 'NULL' ? null : Number(item);
  };
  return [at(0), at(1)];
}

/** A window's session figures (viewers only, previews counted apart), for one scope or per stream. */
const SESSION_COUNTS = [
  sql<number>`count(*) filter (where ${viewer})`.as('viewers'),
  sql<number>`count(*) filter (where not ${viewer})`.as('previews'),
  sql<number>`count(*) filter (where ${viewer} and error_count > 0)`.as('errored'),
] as const;
const SESSION_FIGURES = [
  ...SESSION_COUNTS,
  medianAndP95(PERCENTILE_FIGURES.startup, 'startup'),
  medianAndP95(PERCENTILE_FIGURES.ttff, 'ttff'),
  medianAndP95(PERCENTILE_FIGURES.latency, 'latency'),
] as const;

const MINUTE_FIGURES = [
  sql<number>`coalesce(sum(watch_ms), 0)`.as('watch'),
  sql<number>`coalesce(sum(rebuffer_ms), 0)`.as('rebuffer'),
  sql<number>`coalesce(sum(rebuffer_count), 0)`.as('stalls'),
] as const;

const toSessionFigures = (
  row: Record<'viewers' | 'previews' | 'errored' | 'startup' | 'ttff' | 'latency', unknown>,
): SessionFigures => {
  const [startupMedian, startupP95] = pairOf(row.startup);
  const [ttffMedian, ttffP95] = pairOf(row.ttff);
  const [latencyMedian, latencyP95] = pairOf(row.latency);
  return {
    viewers: num(row.viewers),
    previews: num(row.previews),
    erroredViewers: num(row.errored),
    startupMedian,
    startupP95,
    ttffMedian,
    ttffP95,
    latencyMedian,
    latencyP95,
  };
};

const toMinuteFigures = (row: Record<'watch' | 'rebuffer' | 'stalls', unknown>): MinuteFigures => ({
  watchMs: num(row.watch),
  rebufferMs: num(row.rebuffer),
  rebufferCount: num(row.stalls),
});

/** The largest timeline a session's read answers (its first events). */
export const TIMELINE_MAX_EVENTS = 2000;

export class AnalyticsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Stores one batch in one statement (data-modifying CTEs: atomic without a transaction, and one round trip):
   * its figures added to its session (inserted with its first batch, then the sums grow, the earliest start and
   * the first startup and first frame stay, the rendition is the latest one reported), its events, and its
   * figures added to the stream's minutes. Only viewer tables are written, which no cached answer reads
   * (VIEWER_TABLES: the response cache is not emptied for a beacon).
   */
  async record(session: NewViewerSession, events: ViewerEventRow[], minutes: ViewerMinuteDelta[]): Promise<void> {
    await this.db
      .with('added_session', (db) =>
        db
          .insertInto('viewer_sessions')
          .values(session)
          .onConflict((oc) =>
            oc.column('id').doUpdateSet((eb) => ({
              started_at: sql`least(viewer_sessions.started_at, excluded.started_at)`,
              last_at: sql`greatest(viewer_sessions.last_at, excluded.last_at)`,
              startup_ms: eb.fn.coalesce('viewer_sessions.startup_ms', 'excluded.startup_ms'),
              ttff_ms: eb.fn.coalesce('viewer_sessions.ttff_ms', 'excluded.ttff_ms'),
              ...addedUp('viewer_sessions', [
                'watch_ms',
                'rebuffer_count',
                'rebuffer_ms',
                'error_count',
                'latency_sum_ms',
                'latency_samples',
                'rendition_switches',
                'event_count',
              ]),
              rendition_height: eb.fn.coalesce('excluded.rendition_height', 'viewer_sessions.rendition_height'),
              rendition_bitrate: eb.fn.coalesce('excluded.rendition_bitrate', 'viewer_sessions.rendition_bitrate'),
            })),
          )
          .returning('id'),
      )
      .with('added_events', (db) => db.insertInto('viewer_events').values(events).returning('session_id'))
      .insertInto('viewer_minutes')
      .values(minutes)
      .onConflict((oc) =>
        oc
          .columns(['input_id', 'minute', 'player'])
          .doUpdateSet(
            addedUp('viewer_minutes', [
              'watch_ms',
              'rebuffer_ms',
              'rebuffer_count',
              'error_count',
              'latency_sum_ms',
              'latency_samples',
              'event_count',
            ]),
          ),
      )
      .execute();
  }

  /**
   * The sessions of the scope seen in the window: seen since its start, started before its end; without those that
   * started in the `rolled` hours. Those left are the window's edges: the ones that started before the rolled hours
   * were last seen within a session's longest span after their start (SESSION_SPAN_MAX_MS), the others started
   * after them, so both are read by their ranges of the (scope, last_at) index rather than the whole window's.
   */
  private sessionsIn(scope: AnalyticsScope, from: Date, to: Date, rolled?: RolledHours) {
    let query = this.db.selectFrom('viewer_sessions').where('last_at', '>=', from).where('started_at', '<=', to);
    if (rolled) {
      const spanEnd = new Date(rolled.from.getTime() + SESSION_SPAN_MAX_MS);
      query = query.where((eb) =>
        eb.or([
          eb.and([eb('started_at', '<', rolled.from), eb('last_at', '<', spanEnd)]),
          eb.and([eb('started_at', '>=', rolled.to), eb('last_at', '>=', rolled.to)]),
        ]),
      );
    }
    if (scope !== 'all') {
      const [column, id] = scopeColumn(scope);
      query = query.where(column, '=', id);
    }
    return query;
  }

  /** Viewers, previews, errored viewers and the per-session percentiles (viewers only, previews apart). */
  async sessionFigures(scope: AnalyticsScope, from: Date, to: Date, rolled?: RolledHours): Promise<SessionFigures> {
    const row = await this.sessionsIn(scope, from, to, rolled).select(SESSION_FIGURES).executeTakeFirstOrThrow();
    return toSessionFigures(row);
  }

  /** Viewers, previews and errored viewers of the window's sessions but those of the `rolled` hours. */
  async sessionCounts(scope: AnalyticsScope, from: Date, to: Date, rolled: RolledHours): Promise<SessionCounts> {
    const row = await this.sessionsIn(scope, from, to, rolled).select(SESSION_COUNTS).executeTakeFirstOrThrow();
    return { viewers: num(row.viewers), previews: num(row.previews), erroredViewers: num(row.errored) };
  }

  /** The viewers' per-session figures of those sessions, counted by bucket (to add to the rollups' counts). */
  async sessionBuckets(scope: AnalyticsScope, from: Date, to: Date, rolled: RolledHours): Promise<BucketCount[]> {
    const sessions = this.sessionsIn(scope, from, to, rolled)
      .where('player', '=', 'embed')
      .select([
        PERCENTILE_FIGURES.startup.as('startup'),
        PERCENTILE_FIGURES.ttff.as('ttff'),
        PERCENTILE_FIGURES.latency.as('latency'),
      ]);
    const { rows } = await sql<{ metric: BucketCount['metric']; bucket: number; sessions: unknown }>`
      select m.metric, ${bucketOf(sql`m.v`)} as bucket, count(*) as sessions
      from (${sessions}) s
      cross join lateral (values ('startup', s.startup), ('ttff', s.ttff), ('latency', s.latency)) m (metric, v)
      where m.v is not null
      group by 1, 2`.execute(this.db);
    return rows.map((row) => ({ metric: row.metric, bucket: num(row.bucket), sessions: num(row.sessions) }));
  }

  /** Played and stalled time and stalls of the window's minutes (viewers only). */
  async minuteFigures(scope: AnalyticsScope, from: Date, to: Date, rolled?: RolledHours): Promise<MinuteFigures> {
    const row = await this.minutesIn(scope, from, to, rolled).select(MINUTE_FIGURES).executeTakeFirstOrThrow();
    return toMinuteFigures(row);
  }

  /** The same figures per stream with sessions seen since `since` (the Prometheus series). */
  async figuresByStream(since: Date, now: Date): Promise<StreamFigures[]> {
    const [sessions, minutes] = await Promise.all([
      this.sessionsIn('all', since, now)
        .select(['input_id', 'account_id', ...SESSION_FIGURES])
        .groupBy(['input_id', 'account_id'])
        .execute(),
      this.minutesIn('all', since, now)
        .select(['input_id', ...MINUTE_FIGURES])
        .groupBy('input_id')
        .execute(),
    ]);
    const minutesOf = new Map(minutes.map((row) => [row.input_id, toMinuteFigures(row)]));
    return sessions.map((row) => ({
      streamId: row.input_id,
      accountId: row.account_id,
      ...toSessionFigures(row),
      ...(minutesOf.get(row.input_id) ?? { watchMs: 0, rebufferMs: 0, rebufferCount: 0 }),
    }));
  }

  /** The viewers' minutes of the scope in the window (the minute holding `from` on), but those of the `rolled` hours. */
  private minutesIn(scope: AnalyticsScope, from: Date, to: Date, rolled?: RolledHours) {
    let query = this.db
      .selectFrom('viewer_minutes')
      .where('player', '=', 'embed')
      .where('minute', '>=', sql<Date>`date_trunc('minute', ${from}::timestamptz)`)
      .where('minute', '<=', to);
    if (rolled) {
      query = query.where((eb) => eb.or([eb('minute', '<', rolled.from), eb('minute', '>=', rolled.to)]));
    }
    if (scope !== 'all') {
      const [column, id] = scopeColumn(scope);
      query = query.where(column, '=', id);
    }
    return query;
  }

  /** Viewers, played and stalled time per country, browser, device and rendition, in one pass (grouping sets). */
  async groupFigures(
    scope: AnalyticsScope,
    from: Date,
    to: Date,
    perDimension: number,
    rolled?: RolledHours,
  ): Promise<GroupFigures[]> {
    const grouped = this.sessionsIn(scope, from, to, rolled)
      .where('player', '=', 'embed')
      .select([
        sql<string>`case when grouping(country) = 0 then 'country' when grouping(browser) = 0 then 'browser'
          when grouping(device) = 0 then 'device' else 'rendition' end`.as('dimension'),
        sql<string>`coalesce(country, browser, device, ${RENDITION})`.as('value'),
        sql<number>`count(*)`.as('viewers'),
        sql<number>`sum(watch_ms)`.as('watch'),
        sql<number>`sum(rebuffer_ms)`.as('rebuffer'),
      ])
      .groupBy(sql`grouping sets ((country), (browser), (device), (${RENDITION}))`);
    const rows = await this.db
      .selectFrom(grouped.as('g'))
      .selectAll()
      .select(sql<number>`row_number() over (partition by dimension order by viewers desc, value)`.as('rank'))
      .$narrowType<{ rank: number }>()
      .execute();
    return rows
      .filter((row) => num(row.rank) <= perDimension)
      .map((row) => ({
        dimension: row.dimension as GroupFigures['dimension'],
        value: row.value,
        viewers: num(row.viewers),
        watchMs: num(row.watch),
        rebufferMs: num(row.rebuffer),
      }));
  }

  /** One stream's latest sessions in the window, newest first. */
  latestSessions(streamId: string, from: Date, to: Date, limit: number): Promise<ViewerSessionRow[]> {
    return this.sessionsIn({ streamId }, from, to)
      .selectAll()
      .orderBy('last_at', 'desc')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  getSession(id: string): Promise<ViewerSessionRow | undefined> {
    return this.db.selectFrom('viewer_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  timeline(sessionId: string): Promise<ViewerEventRow[]> {
    return this.db
      .selectFrom('viewer_events')
      .selectAll()
      .where('session_id', '=', sessionId)
      .orderBy('at')
      .limit(TIMELINE_MAX_EVENTS)
      .execute();
  }

  /** Drops what is older than `before`: events by their time, sessions and minutes once last seen before it. */
  async expire(before: Date): Promise<void> {
    await this.db.deleteFrom('viewer_events').where('at', '<', before).execute();
    await this.db.deleteFrom('viewer_sessions').where('last_at', '<', before).execute();
    await this.db.deleteFrom('viewer_minutes').where('minute', '<', before).execute();
  }
}

/** ON CONFLICT's `column = <table>.column + excluded.column` for each counter: a row's counts add up. */
function addedUp<C extends string>(table: string, columns: readonly C[]): Record<C, RawBuilder<number>> {
  const sums = columns.map((column) => [
    column,
    sql<number>`${sql.ref(`${table}.${column}`)} + ${sql.ref(`excluded.${column}`)}`,
  ]);
  return Object.fromEntries(sums) as Record<C, RawBuilder<number>>;
}
