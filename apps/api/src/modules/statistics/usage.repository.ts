import {
  type InputFormat,
  outputModeOfName,
  type ProcessingType,
  protocolOfFormat,
  type StreamUsage,
} from '@streamcloud/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { UsageHourlyTable, UsageRecordsTable } from '../../db/schema.js';

/** Who a stream is for billing: fixed when it first reports, kept after the input or its account is gone. */
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

export const processingOfName = (name: string): ProcessingType =>
  outputModeOfName(name) === 'AdjustableTranscode' ? 'Transcode' : 'Passthrough';

/** Usage records, their rollups and the identities of the streams and nodes they name. The only SQL of usage. */
export class UsageRepository {
  constructor(private readonly db: Db) {}

  /**
   * The identities of the given streams: from the input while it exists (recorded on first sight, the
   * caption kept current), else as recorded. Streams never seen are absent.
   */
  async identities(streamIds: string[]): Promise<Map<string, StreamIdentity>> {
    const found = new Map<string, StreamIdentity>();
    if (streamIds.length === 0) return found;
    const [inputs, known] = await Promise.all([
      this.db
        .selectFrom('inputs')
        .select(['id', 'owner_id', 'format', 'name', 'caption'])
        .where('id', 'in', streamIds)
        .execute(),
      this.db.selectFrom('usage_streams').selectAll().where('stream_id', 'in', streamIds).execute(),
    ]);
    const recorded = new Map(known.map((row) => [row.stream_id, row]));
    const changed: StreamIdentity[] = [];
    for (const input of inputs) {
      const previous = recorded.get(input.id);
      const identity: StreamIdentity = previous
        ? {
            streamId: input.id,
            accountId: previous.account_id,
            protocol: previous.protocol,
            processing: previous.processing,
            name: previous.name,
            caption: input.caption,
          }
        : {
            streamId: input.id,
            accountId: input.owner_id,
            protocol: protocolOfFormat(input.format as InputFormat),
            processing: processingOfName(input.name),
            name: input.name,
            caption: input.caption,
          };
      if (!previous || previous.caption !== input.caption) changed.push(identity);
      found.set(input.id, identity);
    }
    for (const row of known) {
      if (found.has(row.stream_id)) continue;
      found.set(row.stream_id, {
        streamId: row.stream_id,
        accountId: row.account_id,
        protocol: row.protocol,
        processing: row.processing,
        name: row.name,
        caption: row.caption,
      });
    }
    if (changed.length > 0) {
      await this.db
        .insertInto('usage_streams')
        .values(
          changed.map((identity) => ({
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
    return found;
  }

  /**
   * One stream's identity without recording anything: as recorded (with the input's current caption),
   * else from the input; null when the stream neither exists nor ever reported.
   */
  async identity(streamId: string): Promise<StreamIdentity | null> {
    const recorded = await this.db
      .selectFrom('usage_streams')
      .leftJoin('inputs', 'inputs.id', 'usage_streams.stream_id')
      .select([
        'usage_streams.stream_id',
        'usage_streams.account_id',
        'usage_streams.protocol',
        'usage_streams.processing',
        'usage_streams.name',
        sql<string | null>`coalesce(inputs.caption, usage_streams.caption)`.as('caption'),
      ])
      .where('usage_streams.stream_id', '=', streamId)
      .executeTakeFirst();
    if (recorded) {
      return {
        streamId: recorded.stream_id,
        accountId: recorded.account_id,
        protocol: recorded.protocol,
        processing: recorded.processing,
        name: recorded.name,
        caption: recorded.caption,
      };
    }
    const input = await this.db
      .selectFrom('inputs')
      .select(['id', 'owner_id', 'format', 'name', 'caption'])
      .where('id', '=', streamId)
      .executeTakeFirst();
    return input
      ? {
          streamId: input.id,
          accountId: input.owner_id,
          protocol: protocolOfFormat(input.format as InputFormat),
          processing: processingOfName(input.name),
          name: input.name,
          caption: input.caption,
        }
      : null;
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
    for (const part of chunks(rows)) {
      await this.db
        .insertInto('usage_hourly')
        .values(part)
        .onConflict((oc) =>
          oc.columns(['stream_id', 'hour', 'node_id', 'kind', 'session_id']).doUpdateSet({
            duration: sql`usage_hourly.duration + excluded.duration`,
            upload: sql`usage_hourly.upload + excluded.upload`,
            download: sql`usage_hourly.download + excluded.download`,
            started_at: sql`least(usage_hourly.started_at, excluded.started_at)`,
            ended_at: sql`greatest(usage_hourly.ended_at, excluded.ended_at)`,
          }),
        )
        .execute();
    }
  }

  /** Adds deltas to the daily account rollup; the rows must have distinct keys. */
  async addDaily(
    rows: Array<{
      account_id: string;
      day: string;
      kind: string;
      protocol: string;
      processing: string;
      duration: number;
      upload: number;
      download: number;
    }>,
  ): Promise<void> {
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
   * kind and incoming session, and shaped into the answer's stream entries, all on the database (one row
   * per stream, its lists as JSON): the driver parses little, however many sessions there are.
   */
  async usage(scope: UsageScope, from: Date, to: Date): Promise<StreamUsage[]> {
    const filters = [
      sql`h.hour >= date_trunc('hour', ${from}::timestamptz, 'UTC')`,
      sql`h.hour <= ${to}::timestamptz`,
      ...(scope.accountId ? [sql`h.account_id = ${scope.accountId}`] : []),
      ...(scope.streamId ? [sql`h.stream_id = ${scope.streamId}`] : []),
      ...(scope.protocol ? [sql`h.protocol = ${scope.protocol}`] : []),
      ...(scope.processing ? [sql`h.processing = ${scope.processing}`] : []),
    ];
    const traffic = (kind: 'internode' | 'outgoing') => sql`coalesce(
        json_agg(json_build_object('nodeId', d.node_id, 'node', d.node_name, 'duration', d.duration,
                                   'upload', d.upload, 'download', d.download)
                 order by d.node_name, d.node_id) filter (where d.kind = ${kind}),
        '[]')`;
    const result = await sql<StreamUsage>`
      with u as (
        select h.stream_id, h.node_id, h.kind, h.session_id, min(h.started_at) as started_at,
               max(h.ended_at) as ended_at, sum(h.duration) as duration, sum(h.upload) as upload,
               sum(h.download) as download
        from usage_hourly h
        where ${sql.join(filters, sql` and `)}
        group by h.stream_id, h.node_id, h.kind, h.session_id
      ), d as (
        select u.*, coalesce(n.name, un.name, u.node_id::text) as node_name
        from u
        left join nodes n on n.id = u.node_id
        left join usage_nodes un on un.node_id = u.node_id
      )
      select s.stream_id as "streamId", coalesce(i.caption, s.caption) as caption, s.account_id as "accountId",
             s.protocol, s.processing,
             coalesce(sum(d.duration) filter (where d.kind = 'incoming'), 0) as duration,
             coalesce(
               json_agg(json_build_object('sessionId', d.session_id, 'nodeId', d.node_id, 'node', d.node_name,
                                          'started', d.started_at, 'ended', d.ended_at,
                                          'duration', d.duration, 'upload', d.upload, 'download', d.download)
                        order by d.started_at, d.node_id, d.session_id) filter (where d.kind = 'incoming'),
               '[]') as incoming,
             ${traffic('internode')} as internode,
             ${traffic('outgoing')} as outgoing
      from d
      join usage_streams s on s.stream_id = d.stream_id
      left join inputs i on i.id = d.stream_id
      group by s.stream_id, i.caption, s.caption, s.account_id, s.protocol, s.processing
      order by s.stream_id`.execute(this.db);
    // JSON renders timestamps in the session's time zone: the answer's are UTC ('…Z').
    for (const stream of result.rows) {
      for (const session of stream.incoming) {
        session.started = new Date(session.started).toISOString();
        session.ended = new Date(session.ended).toISOString();
      }
    }
    return result.rows;
  }

  /** Totals per account, kind, protocol and processing since the beginning (the /metrics counters). */
  async accountTotals() {
    const result = await sql<{
      account_id: string;
      kind: string;
      protocol: string;
      processing: string;
      duration: number;
      upload: number;
      download: number;
    }>`
      select account_id, kind, protocol, processing,
             sum(duration) as duration, sum(upload) as upload, sum(download) as download
      from usage_daily
      group by account_id, kind, protocol, processing
      order by account_id, kind, protocol, processing`.execute(this.db);
    return result.rows;
  }
}
