import type { ProcessingType } from '@streamcloud/contract';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { UsageDailyTable, UsageHourlyTable, UsageRecordsTable, UsageStreamDailyTable } from '../../db/schema.js';

/** Who a stream is for billing: fixed when it first reports, kept after the stream or its account is gone. */
export interface StreamIdentity {
  streamId: string;
  accountId: string;
  protocol: string;
  processing: ProcessingType;
  name: string;
  caption: string | null;
}

export type UsageRecord = Omit<UsageRecordsTable, 'id'>;
export type HourlyUsage = UsageHourlyTable;
export type StreamDailyUsage = Omit<UsageStreamDailyTable, 'day'> & { day: string };
export type DailyUsage = Omit<UsageDailyTable, 'day'> & { day: string };

/** What the statistics calls filter on. `accountId` null: every account. */
export interface UsageScope {
  accountId: string | null;
  streamId?: string;
  protocol?: string;
  processing?: string;
}

const CHUNK = 2000;
function* chunks<T>(rows: T[], size = CHUNK): Generator<T[]> {
  for (let start = 0; start < rows.length; start += size) yield rows.slice(start, start + size);
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The hours a usage window touches, [firstHour, lastHour], split into the whole UTC days among them
 * ([firstDay, endDay), none when there is no whole day) and the hours before and after them.
 */
function usageWindow(from: Date, to: Date) {
  const firstHour = Math.floor(from.getTime() / HOUR_MS) * HOUR_MS;
  const lastHour = Math.floor(to.getTime() / HOUR_MS) * HOUR_MS;
  const firstDay = Math.ceil(firstHour / DAY_MS) * DAY_MS;
  const endDay = Math.floor((lastHour + HOUR_MS) / DAY_MS) * DAY_MS;
  return { firstHour, lastHour, days: firstDay < endDay ? { firstDay, endDay } : null };
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Stream ids in [from, below); an open end is unbounded. */
interface StreamRange {
  from?: string;
  below?: string;
}
/** The parts a report over many streams is rendered in: stream ids are random (version 4) uuids. */
const STREAM_RANGES: StreamRange[] = [
  { below: '80000000-0000-0000-0000-000000000000' },
  { from: '80000000-0000-0000-0000-000000000000' },
];

/** A float8 as JSON: its text (what to_json writes) when finite, else what to_json makes of it (a string). */
const jsonNumber = (value: RawBuilder<unknown>) =>
  sql`case when ${value} > '-Infinity' and ${value} < 'Infinity' then (${value})::text else to_json(${value})::text end`;
const jsonTime = (column: RawBuilder<unknown>) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Usage records, their rollups and the identities of the streams and nodes they name. The only SQL of usage. */
export class UsageRepository {
  constructor(private readonly db: Db) {}

  /** The identities recorded for the given streams (those that ever reported usage). */
  async recordedStreams(streamIds: string[]): Promise<StreamIdentity[]> {
    if (streamIds.length === 0) return [];
    return this.db
      .selectFrom('usage_streams')
      .select(['stream_id as streamId', 'account_id as accountId', 'protocol', 'processing', 'name', 'caption'])
      .where('stream_id', 'in', streamIds)
      .execute();
  }

  /** Records identities: new streams are added, and a known stream's caption is updated (nothing else). */
  async recordStreams(identities: StreamIdentity[]): Promise<void> {
    if (identities.length === 0) return;
    await this.db
      .insertInto('usage_streams')
      .values(
        identities.map((identity) => ({
          stream_id: identity.streamId,
          account_id: identity.accountId,
          protocol: identity.protocol,
          processing: identity.processing,
          name: identity.name,
          caption: identity.caption,
        })),
      )
      .onConflict((oc) => oc.column('stream_id').doUpdateSet({ caption: (eb) => eb.ref('excluded.caption') }))
      .execute();
  }

  async rememberNode(nodeId: string, name: string): Promise<void> {
    await this.db
      .insertInto('usage_nodes')
      .values({ node_id: nodeId, name })
      .onConflict((oc) =>
        oc
          .column('node_id')
          .doUpdateSet({ name: (eb) => eb.ref('excluded.name') })
          .where('usage_nodes.name', '<>', (eb) => eb.ref('excluded.name')),
      )
      .execute();
  }

  async insertRecords(records: UsageRecord[]): Promise<void> {
    for (const part of chunks(records)) await this.db.insertInto('usage_records').values(part).execute();
  }

  /** Adds deltas to the hourly rollup; the rows must have distinct keys. */
  async addHourly(rows: HourlyUsage[]): Promise<void> {
    await this.addSessionRollup('usage_hourly', 'hour', rows);
  }

  /** Adds deltas to the per-stream daily rollup (usage_hourly per day); the rows must have distinct keys. */
  async addStreamDaily(rows: StreamDailyUsage[]): Promise<void> {
    await this.addSessionRollup('usage_stream_daily', 'day', rows);
  }

  /** The two per-session rollups differ only in their table and period column. */
  private async addSessionRollup(
    table: 'usage_hourly' | 'usage_stream_daily',
    period: 'hour' | 'day',
    rows: Array<HourlyUsage | StreamDailyUsage>,
  ): Promise<void> {
    const current = (column: string) => sql.ref(`${table}.${column}`);
    for (const part of chunks(rows)) {
      await this.db
        .insertInto(table)
        .values(part)
        .onConflict((oc) =>
          oc.columns(['stream_id', period, 'node_id', 'kind', 'session_id']).doUpdateSet({
            duration: sql`${current('duration')} + excluded.duration`,
            upload: sql`${current('upload')} + excluded.upload`,
            download: sql`${current('download')} + excluded.download`,
            started_at: sql`least(${current('started_at')}, excluded.started_at)`,
            ended_at: sql`greatest(${current('ended_at')}, excluded.ended_at)`,
            // Transcode once a ladder ran in the period ('Transcode' > 'Passthrough').
            processing: sql`greatest(${current('processing')}, excluded.processing)`,
          }),
        )
        .execute();
    }
  }

  /** Adds deltas to the daily account rollup; the rows must have distinct keys. */
  async addDaily(rows: DailyUsage[]): Promise<void> {
    for (const part of chunks(rows)) {
      await this.db
        .insertInto('usage_daily')
        .values(part)
        .onConflict((oc) =>
          oc.columns(['account_id', 'day', 'kind', 'protocol', 'processing']).doUpdateSet({
            duration: sql`usage_daily.duration + excluded.duration`,
            upload: sql`usage_daily.upload + excluded.upload`,
            download: sql`usage_daily.download + excluded.download`,
          }),
        )
        .execute();
    }
  }

  /**
   * Usage within [from, to] at hour resolution (every hour the window touches), summed per stream, node,
   * kind and incoming session and rendered as the answer's `streams` JSON array, all on the database: a
   * report can be megabytes, and this way it is built once and never parsed or re-serialized on its way out.
   * The whole days of the window are read from the daily rollup, the hours of its partial edge days from the
   * hourly one.
   *
   * The text is built by concatenation, not json_build_object / json_agg: those look up each value's type
   * on every call, and the ordered json_agg sorted every stream's JSON again (on disk, past work_mem); the
   * all-accounts month report spent most of its time there. A stream's processing is what its rows in the
   * window were billed as (Transcode when a ladder ran in any of them; 'Transcode' > 'Passthrough', so max). The narrow rows are sorted once (streams by id,
   * then each list's order: sessions by start, nodes by name) and string_agg keeps that order; the stream's
   * identity joins once per stream.
   *
   * A report over many streams is rendered in parts, ranges of stream ids, one query each: on PostgreSQL
   * they run side by side on their own connections (PGlite takes them in turn). A stream is whole within its
   * part and the parts follow in id order, so together they are the same array. Each part reads its own
   * snapshot: a usage report arriving meanwhile may count in one part and not yet in another.
   */
  async usageJson(scope: UsageScope, from: Date, to: Date): Promise<string> {
    const parts: StreamRange[] = scope.streamId ? [{}] : STREAM_RANGES;
    const texts = await Promise.all(parts.map((range) => this.usagePart(scope, range, from, to)));
    return `[${texts.filter((text) => text !== null).join(',')}]`;
  }

  /** The streams of one id range rendered as JSON array elements (without the brackets); null when none. */
  private async usagePart(scope: UsageScope, range: StreamRange, from: Date, to: Date): Promise<string | null> {
    const scoped = [
      ...(scope.accountId ? [sql`r.account_id = ${scope.accountId}`] : []),
      ...(scope.streamId ? [sql`r.stream_id = ${scope.streamId}`] : []),
      ...(scope.protocol ? [sql`r.protocol = ${scope.protocol}`] : []),
      ...(scope.processing ? [sql`r.processing = ${scope.processing}`] : []),
      ...(range.from ? [sql`r.stream_id >= ${range.from}::uuid`] : []),
      ...(range.below ? [sql`r.stream_id < ${range.below}::uuid`] : []),
    ];
    const where = (period: RawBuilder<unknown>) => sql.join([period, ...scoped], sql` and `);
    const { firstHour, lastHour, days } = usageWindow(from, to);
    const columns = sql`r.stream_id, r.node_id, r.kind, r.session_id, r.started_at, r.ended_at, r.duration,
                        r.upload, r.download, r.processing`;
    const hours = days
      ? sql`((r.hour >= ${new Date(firstHour)} and r.hour < ${new Date(days.firstDay)})
             or (r.hour >= ${new Date(days.endDay)} and r.hour <= ${new Date(lastHour)}))`
      : sql`r.hour >= ${new Date(firstHour)} and r.hour <= ${new Date(lastHour)}`;
    const rows = days
      ? sql`select ${columns} from usage_stream_daily r
            where ${where(sql`r.day >= ${dayOf(days.firstDay)}::date and r.day < ${dayOf(days.endDay)}::date`)}
            union all
            select ${columns} from usage_hourly r where ${where(hours)}`
      : sql`select ${columns} from usage_hourly r where ${where(hours)}`;
    const traffic = (kind: 'internode' | 'outgoing') => sql`coalesce(
        string_agg('{' || d.node_json || ',"duration":' || ${jsonNumber(sql`d.duration`)}
                   || ',"upload":' || ${jsonNumber(sql`d.upload`)} || ',"download":' || ${jsonNumber(sql`d.download`)}
                   || '}', ',') filter (where d.kind = ${kind}),
        '')`;
    const result = await sql<{ streams: string | null }>`
      with u as (
        select r.stream_id, r.node_id, r.kind, r.session_id, min(r.started_at) as started_at,
               max(r.ended_at) as ended_at, sum(r.duration) as duration, sum(r.upload) as upload,
               sum(r.download) as download, max(r.processing) as processing
        from (${rows}) r
        group by r.stream_id, r.node_id, r.kind, r.session_id
      ), node_names as (
        select coalesce(n.id, un.node_id) as node_id, coalesce(n.name, un.name) as name,
               '"nodeId":"' || coalesce(n.id, un.node_id)::text || '","node":'
                 || to_json(coalesce(n.name, un.name))::text as node_json
        from nodes n
        full join usage_nodes un on un.node_id = n.id
      ), d as (
        select u.*, coalesce(nn.name, u.node_id::text) as node_name,
               coalesce(nn.node_json, '"nodeId":"' || u.node_id::text || '","node":"' || u.node_id::text || '"')
                 as node_json
        from u
        left join node_names nn on nn.node_id = u.node_id
        order by u.stream_id, u.kind, u.started_at, node_name, u.node_id, u.session_id
      ), per_stream as (
        select d.stream_id, coalesce(sum(d.duration) filter (where d.kind = 'incoming'), 0) as duration,
               max(d.processing) as processing,
               coalesce(
                 string_agg('{"sessionId":' || to_json(d.session_id)::text || ',' || d.node_json
                            || ',"started":' || coalesce('"' || ${jsonTime(sql`d.started_at`)} || '"', 'null')
                            || ',"ended":"' || ${jsonTime(sql`d.ended_at`)}
                            || '","duration":' || ${jsonNumber(sql`d.duration`)}
                            || ',"upload":' || ${jsonNumber(sql`d.upload`)}
                            || ',"download":' || ${jsonNumber(sql`d.download`)} || '}', ',')
                   filter (where d.kind = 'incoming'),
                 '') as incoming,
               ${traffic('internode')} as internode,
               ${traffic('outgoing')} as outgoing
        from d
        group by d.stream_id
      )
      select string_agg(p.stream, ',') as streams
      from (
        select '{"streamId":"' || p.stream_id::text || '","caption":'
               || coalesce(to_json(coalesce(i.caption, s.caption))::text, 'null')
               || ',"accountId":"' || s.account_id::text || '","protocol":' || to_json(s.protocol)::text
               || ',"processing":' || to_json(p.processing)::text || ',"duration":' || ${jsonNumber(sql`p.duration`)}
               || ',"incoming":[' || p.incoming || '],"internode":[' || p.internode
               || '],"outgoing":[' || p.outgoing || ']}' as stream
        from per_stream p
        join usage_streams s on s.stream_id = p.stream_id
        left join inputs i on i.id = p.stream_id
        order by p.stream_id
      ) p`.execute(this.db);
    return result.rows[0]?.streams ?? null;
  }

  /** Totals per account, kind, protocol and processing since the beginning (the /metrics counters). */
  async accountTotals() {
    const result = await sql<Omit<DailyUsage, 'day'>>`
      select account_id, kind, protocol, processing,
             sum(duration) as duration, sum(upload) as upload, sum(download) as download
      from usage_daily
      group by account_id, kind, protocol, processing
      order by account_id, kind, protocol, processing`.execute(this.db);
    return result.rows;
  }
}
