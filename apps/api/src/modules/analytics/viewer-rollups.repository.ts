import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import {
  type BucketCount,
  bucketOf,
  type GroupFigures,
  type MinuteFigures,
  PERCENTILE_FIGURES,
  RENDITION,
  type RolledHours,
  type SessionCounts,
} from './analytics.repository.js';

/** The rollups' account of every account together (the nil UUID: no account has it). */
export const EVERY_ACCOUNT = '00000000-0000-0000-0000-000000000000';

const HOUR_MS = 3600_000;
const ROLLUP_TABLES = ['viewer_hours', 'viewer_hour_buckets', 'viewer_hour_groups'] as const;
const num = (value: unknown): number => Number(value ?? 0);
/** The rows of one account (or EVERY_ACCOUNT) in the rolled hours: what every read of the rollup tables selects. */
const ofAccountInHours = (accountId: string, hours: RolledHours) =>
  sql<boolean>`account_id = ${accountId} and hour >= ${hours.from} and hour < ${hours.to}`;

/**
 * The hourly rollups of the viewer sessions (per account, and for every account together), read by account-wide
 * windows for their whole rolled hours; written one hour at a time by the analytics' periodic job.
 */
export class ViewerRollupsRepository {
  constructor(private readonly db: Db) {}

  /** The hours rolled up, [from, until); null before the first run. */
  async rolled(): Promise<{ from: Date; until: Date } | null> {
    const row = await this.db
      .selectFrom('viewer_rollup_state')
      .select(['rolled_from', 'rolled_until'])
      .executeTakeFirst();
    return row ? { from: row.rolled_from, until: row.rolled_until } : null;
  }

  /**
   * Where the first run starts: the hour of the earliest session kept, or `latest` if earlier (an hour no session
   * arriving from now on can have started in, so none is ever filed before the rolled hours).
   */
  async start(latest: Date): Promise<{ from: Date; until: Date }> {
    const row = await this.db
      .selectFrom('viewer_sessions')
      .select(sql<Date | null>`date_trunc('hour', min(started_at))`.as('hour'))
      .executeTakeFirst();
    const first = row?.hour && row.hour < latest ? row.hour : latest;
    await this.db
      .insertInto('viewer_rollup_state')
      .values({ id: true, rolled_from: first, rolled_until: first })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    return (await this.rolled()) ?? { from: first, until: first };
  }

  /**
   * Rolls up the hour starting at `hour`, which must be where the rolling stands (compare and set: of two runs at
   * once one rolls it, the other changes nothing). Must run on a transaction. Answers whether this one did.
   */
  async rollHour(hour: Date): Promise<boolean> {
    const next = new Date(hour.getTime() + HOUR_MS);
    const moved = await this.db
      .updateTable('viewer_rollup_state')
      .set({ rolled_until: next })
      .where('rolled_until', '=', hour)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) return false;
    // Rows of this hour from a rolling started over (the state reset by hand) are replaced, never added to.
    for (const table of ROLLUP_TABLES) await this.db.deleteFrom(table).where('hour', '=', hour).execute();
    const account = sql`coalesce(account_id, ${EVERY_ACCOUNT}::uuid)`;
    const inHour = sql`started_at >= ${hour} and started_at < ${next}`;
    const bucket = bucketOf(sql`m.v`);
    // Each figure per account and for every account together (grouping sets), in one pass of the hour's rows.
    await sql`
      insert into viewer_hours (account_id, hour, viewers, previews, errored, watch_ms, rebuffer_ms, rebuffer_count)
      select coalesce(s.account, m.account), ${hour}, coalesce(s.viewers, 0), coalesce(s.previews, 0),
             coalesce(s.errored, 0), coalesce(m.watch, 0), coalesce(m.rebuffer, 0), coalesce(m.stalls, 0)
      from (
        select ${account} as account, count(*) filter (where player = 'embed') as viewers,
               count(*) filter (where player <> 'embed') as previews,
               count(*) filter (where player = 'embed' and error_count > 0) as errored
        from viewer_sessions where ${inHour}
        group by grouping sets ((account_id), ())
      ) s
      full join (
        select ${account} as account, sum(watch_ms) as watch, sum(rebuffer_ms) as rebuffer,
               sum(rebuffer_count) as stalls
        from viewer_minutes where player = 'embed' and minute >= ${hour} and minute < ${next}
        group by grouping sets ((account_id), ())
      ) m on m.account = s.account`.execute(this.db);
    await sql`
      insert into viewer_hour_buckets (account_id, hour, metric, bucket, sessions)
      select ${account}, ${hour}, m.metric, ${bucket}, count(*)
      from viewer_sessions
      cross join lateral (values ('startup', ${PERCENTILE_FIGURES.startup}), ('ttff', ${PERCENTILE_FIGURES.ttff}),
                                 ('latency', ${PERCENTILE_FIGURES.latency})) m (metric, v)
      where ${inHour} and player = 'embed' and m.v is not null
      group by grouping sets ((account_id, m.metric, ${bucket}), (m.metric, ${bucket}))`.execute(this.db);
    await sql`
      insert into viewer_hour_groups (account_id, hour, dimension, value, viewers, watch_ms, rebuffer_ms)
      select ${account}, ${hour}, g.dimension, g.value, count(*), sum(watch_ms), sum(rebuffer_ms)
      from viewer_sessions
      cross join lateral (values ('country', country), ('browser', browser), ('device', device),
                                 ('rendition', ${RENDITION})) g (dimension, value)
      where ${inHour} and player = 'embed'
      group by grouping sets ((account_id, g.dimension, g.value), (g.dimension, g.value))`.execute(this.db);
    return true;
  }

  /** The rolled hours' counts and minutes, summed. */
  async figures(accountId: string, hours: RolledHours): Promise<SessionCounts & MinuteFigures> {
    const row = await this.db
      .selectFrom('viewer_hours')
      .where(ofAccountInHours(accountId, hours))
      .select([
        sql<number>`coalesce(sum(viewers), 0)`.as('viewers'),
        sql<number>`coalesce(sum(previews), 0)`.as('previews'),
        sql<number>`coalesce(sum(errored), 0)`.as('errored'),
        sql<number>`coalesce(sum(watch_ms), 0)`.as('watch'),
        sql<number>`coalesce(sum(rebuffer_ms), 0)`.as('rebuffer'),
        sql<number>`coalesce(sum(rebuffer_count), 0)`.as('stalls'),
      ])
      .executeTakeFirstOrThrow();
    return {
      viewers: num(row.viewers),
      previews: num(row.previews),
      erroredViewers: num(row.errored),
      watchMs: num(row.watch),
      rebufferMs: num(row.rebuffer),
      rebufferCount: num(row.stalls),
    };
  }

  /** The rolled hours' sessions per bucket of each per-session figure. */
  async buckets(accountId: string, hours: RolledHours): Promise<BucketCount[]> {
    const rows = await this.db
      .selectFrom('viewer_hour_buckets')
      .where(ofAccountInHours(accountId, hours))
      .select(['metric', 'bucket', sql<number>`sum(sessions)`.as('sessions')])
      .groupBy(['metric', 'bucket'])
      .execute();
    return rows.map((row) => ({ metric: row.metric, bucket: row.bucket, sessions: num(row.sessions) }));
  }

  /** The rolled hours' breakdowns, every value of each dimension. */
  async groups(accountId: string, hours: RolledHours): Promise<GroupFigures[]> {
    const rows = await this.db
      .selectFrom('viewer_hour_groups')
      .where(ofAccountInHours(accountId, hours))
      .select([
        'dimension',
        'value',
        sql<number>`sum(viewers)`.as('viewers'),
        sql<number>`sum(watch_ms)`.as('watch'),
        sql<number>`sum(rebuffer_ms)`.as('rebuffer'),
      ])
      .groupBy(['dimension', 'value'])
      .execute();
    return rows.map((row) => ({
      dimension: row.dimension,
      value: row.value,
      viewers: num(row.viewers),
      watchMs: num(row.watch),
      rebufferMs: num(row.rebuffer),
    }));
  }

  /** Drops the rollups of the hours before `before` (the retention). */
  async expire(before: Date): Promise<void> {
    for (const table of ROLLUP_TABLES) {
      await this.db.deleteFrom(table).where('hour', '<', before).execute();
    }
  }
}
