import { type InputFormat, outputModeOfName, type ProcessingType, protocolOfFormat } from '@streamcloud/contract';
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
   * kind and incoming session and rendered as the answer's `streams` JSON array, all on the database: a
   * report can be megabytes, and this way it is built once and never parsed or re-serialized on its way out.
   */
  async usageJson(scope: UsageScope, from: Date, to: Date): Promise<string> {
    const filters = [
      sql`h.hour >= date_trunc('hour', ${from}::timestamptz, 'UTC')`,
      sql`h.hour <= ${to}::timestamptz`,
      ...(scope.accountId ? [sql`h.account_id = ${scope.accountId}`] : []),
      ...(scope.streamId ? [sql`h.stream_id = ${scope.streamId}`] : []),
      ...(scope.protocol ? [sql`h.protocol = ${scope.protocol}`] : []),
      ...(scope.processing ? [sql`h.processing = ${scope.processing}`] : []),
    ];
    const iso = (column: string) =>
      sql`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    const traffic = (kind: 'internode' | 'outgoing') => sql`coalesce(
        json_agg(json_build_object('nodeId', node_id, 'node', node_name, 'duration', duration,
                                   'upload', upload, 'download', download)) filter (where kind = ${kind}),
        '[]')`;
    // The lists keep the order of the sorted input (sessions by start, nodes by name).
    const result = await sql<{ streams: string }>`
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
        order by u.stream_id, u.kind, u.started_at, node_name, u.node_id, u.session_id
      ), per_stream as (
        select stream_id,
               coalesce(sum(duration) filter (where kind = 'incoming'), 0) as duration,
               coalesce(
                 json_agg(json_build_object('sessionId', session_id, 'nodeId', node_id, 'node', node_name,
                                            'started', ${iso('started_at')}, 'ended', ${iso('ended_at')},
                                            'duration', duration, 'upload', upload, 'download', download))
                   filter (where kind = 'incoming'),
                 '[]') as incoming,
               ${traffic('internode')} as internode,
               ${traffic('outgoing')} as outgoing
        from d
        group by stream_id
      )
      select coalesce(
               json_agg(json_build_object('streamId', p.stream_id, 'caption', coalesce(i.caption, s.caption),
                                          'accountId', s.account_id, 'protocol', s.protocol,
                                          'processing', s.processing, 'duration', p.duration,
                                          'incoming', p.incoming, 'internode', p.internode,
                                          'outgoing', p.outgoing)
                        order by p.stream_id),
               '[]')::text as streams
      from per_stream p
      join usage_streams s on s.stream_id = p.stream_id
      left join inputs i on i.id = p.stream_id`.execute(this.db);
    return result.rows[0]?.streams ?? '[]';
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
