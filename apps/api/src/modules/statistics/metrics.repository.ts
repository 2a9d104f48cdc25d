import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { MetricSamplesTable } from '../../db/schema.js';

export type MetricSample = MetricSamplesTable;
export type Grain = 'raw' | 'minute' | 'hour';

/** The account key of the rollup over every account. */
export const ALL_ACCOUNTS = '00000000-0000-0000-0000-000000000000';
/** The stream's concurrent sessions (publishers and viewers) on a node: stored beside the metrics. */
export const SESSIONS_METRIC = 'ConcurrentSessions';
/** Metrics that add up across streams: the ones kept per account. */
export const ADDITIVE_METRICS: ReadonlySet<string> = new Set([
  'IncomingBitrate',
  'OutgoingBitrate',
  'ConcurrentViewers',
  SESSIONS_METRIC,
]);

const GRAIN_MS = { minute: 60_000, hour: 3_600_000 } as const;

export interface SeriesPoint {
  series: string;
  t: number;
  v: number;
}

export interface StreamSeriesQuery {
  streamId: string;
  name: string;
  grain: Grain;
  from: Date;
  to: Date;
  step: number;
  /** One series per location, or one across every location. */
  byLocation: boolean;
  /** How the series of several nodes at one time add up. */
  across: 'sum' | 'avg';
  protocol?: string;
  processing?: string;
}

export interface AccountSeriesQuery {
  accountId: string;
  name: string;
  grain: Exclude<Grain, 'raw'>;
  from: Date;
  to: Date;
  step: number;
  byProtocol: boolean;
  protocol?: string;
  processing?: string;
}

function* chunks<T>(rows: T[], size: number): Generator<T[]> {
  for (let start = 0; start < rows.length; start += size) yield rows.slice(start, start + size);
}

const keyOf = (...parts: Array<string | number>) => parts.join('|');

/** Metric samples, their per-minute and per-hour rollups and the account rollups. The only SQL of metrics. */
export class MetricsRepository {
  constructor(private readonly db: Db) {}

  async nodeLocation(nodeId: string): Promise<string | null> {
    const row = await this.db.selectFrom('nodes').select('location_code').where('id', '=', nodeId).executeTakeFirst();
    return row?.location_code ?? null;
  }

  /** Stores the samples and adds them to every rollup. */
  async add(samples: MetricSample[]): Promise<void> {
    if (samples.length === 0) return;
    for (const part of chunks(samples, 5000)) await this.db.insertInto('metric_samples').values(part).execute();
    await this.rollUp('minute', samples);
    await this.rollUp('hour', samples);
  }

  /**
   * Adds samples to the series rollup of a grain, then moves each account rollup by how much each
   * series' average in that bucket changed, so the account rollup stays the sum of the series' averages.
   */
  private async rollUp(grain: 'minute' | 'hour', samples: MetricSample[]): Promise<void> {
    const size = GRAIN_MS[grain];
    const added = new Map<string, { sample: MetricSample; bucket: Date; sum: number; count: number; max: number }>();
    for (const sample of samples) {
      const bucket = new Date(Math.floor(sample.at.getTime() / size) * size);
      const key = keyOf(sample.stream_id, sample.name, bucket.getTime(), sample.node_id, sample.location);
      const entry = added.get(key);
      if (entry) {
        entry.sum += sample.value;
        entry.count += 1;
        entry.max = Math.max(entry.max, sample.value);
      } else {
        added.set(key, { sample, bucket, sum: sample.value, count: 1, max: sample.value });
      }
    }
    const table = grain === 'minute' ? 'metric_minutes' : 'metric_hours';
    const accountDeltas = new Map<
      string,
      { account_id: string; name: string; bucket: Date; protocol: string; processing: string; value: number }
    >();
    const addDelta = (accountId: string, sample: MetricSample, bucket: Date, delta: number) => {
      const key = keyOf(accountId, sample.name, bucket.getTime(), sample.protocol, sample.processing);
      const entry = accountDeltas.get(key);
      if (entry) entry.value += delta;
      else {
        accountDeltas.set(key, {
          account_id: accountId,
          name: sample.name,
          bucket,
          protocol: sample.protocol,
          processing: sample.processing,
          value: delta,
        });
      }
    };
    for (const part of chunks([...added.values()], 2000)) {
      const returned = await sql<{
        stream_id: string;
        name: string;
        bucket: Date;
        node_id: string;
        location: string;
        sum: number;
        count: number;
      }>`
        insert into ${sql.table(table)}
          (stream_id, name, ${sql.ref(grain)}, node_id, location, account_id, protocol, processing, sum, count, max)
        values ${sql.join(
          part.map(
            ({ sample, bucket, sum, count, max }) =>
              sql`(${sample.stream_id}, ${sample.name}, ${bucket}, ${sample.node_id}, ${sample.location}, ${sample.account_id}, ${sample.protocol}, ${sample.processing}, ${sum}, ${count}, ${max})`,
          ),
        )}
        on conflict (stream_id, name, ${sql.ref(grain)}, node_id, location) do update set
          sum = ${sql.table(table)}.sum + excluded.sum,
          count = ${sql.table(table)}.count + excluded.count,
          max = greatest(${sql.table(table)}.max, excluded.max)
        returning stream_id, name, ${sql.ref(grain)} as bucket, node_id, location, sum, count`.execute(this.db);
      for (const row of returned.rows) {
        if (!ADDITIVE_METRICS.has(row.name)) continue;
        const entry = added.get(
          keyOf(row.stream_id, row.name, new Date(row.bucket).getTime(), row.node_id, row.location),
        );
        if (!entry) continue;
        const oldCount = row.count - entry.count;
        const oldAverage = oldCount > 0 ? (row.sum - entry.sum) / oldCount : 0;
        const delta = row.sum / row.count - oldAverage;
        addDelta(entry.sample.account_id, entry.sample, entry.bucket, delta);
        addDelta(ALL_ACCOUNTS, entry.sample, entry.bucket, delta);
      }
    }
    const accountTable = grain === 'minute' ? 'metric_account_minutes' : 'metric_account_hours';
    for (const part of chunks([...accountDeltas.values()], 5000)) {
      await sql`
        insert into ${sql.table(accountTable)} (account_id, name, ${sql.ref(grain)}, protocol, processing, value)
        values ${sql.join(
          part.map(
            (row) =>
              sql`(${row.account_id}, ${row.name}, ${row.bucket}, ${row.protocol}, ${row.processing}, ${row.value})`,
          ),
        )}
        on conflict (account_id, name, ${sql.ref(grain)}, protocol, processing) do update set
          value = ${sql.table(accountTable)}.value + excluded.value`.execute(this.db);
    }
  }

  /**
   * One stream's series of a metric: per series (node and location) the average in each step, then the sum
   * (or average) over nodes, per location or across them. Computed on the database.
   */
  async streamSeries(query: StreamSeriesQuery): Promise<SeriesPoint[]> {
    const { table, time, average } = seriesSource(query.grain);
    const filters = [
      sql`stream_id = ${query.streamId}`,
      sql`name = ${query.name}`,
      sql`${time} >= ${bucketStart(query.grain, query.from)}`,
      sql`${time} <= ${query.to}::timestamptz`,
      ...(query.protocol ? [sql`protocol = ${query.protocol}`] : []),
      ...(query.processing ? [sql`processing = ${query.processing}`] : []),
    ];
    const series = query.byLocation ? sql`location` : sql`''`;
    const across = query.across === 'avg' ? sql`avg(v)` : sql`sum(v)`;
    const result = await sql<SeriesPoint>`
      select series, t, ${across} as v from (
        select ${series} as series, node_id, location,
               floor(extract(epoch from ${time}) / ${query.step}) * ${query.step} as t, ${average} as v
        from ${table}
        where ${sql.join(filters, sql` and `)}
        group by series, node_id, location, t
      ) per_series
      group by series, t
      order by series, t`.execute(this.db);
    return result.rows;
  }

  /** An account's (or every account's) series: the account rollup, averaged over each step's buckets. */
  async accountSeries(query: AccountSeriesQuery): Promise<SeriesPoint[]> {
    const time = sql.ref(query.grain);
    const table = sql.table(query.grain === 'minute' ? 'metric_account_minutes' : 'metric_account_hours');
    const filters = [
      sql`account_id = ${query.accountId}`,
      sql`name = ${query.name}`,
      sql`${time} >= ${bucketStart(query.grain, query.from)}`,
      sql`${time} <= ${query.to}::timestamptz`,
      ...(query.protocol ? [sql`protocol = ${query.protocol}`] : []),
      ...(query.processing ? [sql`processing = ${query.processing}`] : []),
    ];
    const series = query.byProtocol ? sql`protocol` : sql`''`;
    // Per bucket of the rollup the total over protocols (or per protocol), then its average over each step.
    const result = await sql<SeriesPoint>`
      select series, floor(extract(epoch from bucket) / ${query.step}) * ${query.step} as t, avg(total) as v
      from (
        select ${series} as series, ${time} as bucket, sum(value) as total
        from ${table}
        where ${sql.join(filters, sql` and `)}
        group by 1, 2
      ) per_bucket
      group by 1, 2
      order by 1, 2`.execute(this.db);
    return result.rows;
  }

  /** The highest number of concurrent sessions in any bucket of the window (0 without data). */
  async peakSessions(query: Omit<AccountSeriesQuery, 'name' | 'step' | 'byProtocol'>): Promise<number> {
    const time = sql.ref(query.grain);
    const table = sql.table(query.grain === 'minute' ? 'metric_account_minutes' : 'metric_account_hours');
    const filters = [
      sql`account_id = ${query.accountId}`,
      sql`name = ${SESSIONS_METRIC}`,
      sql`${time} >= ${bucketStart(query.grain, query.from)}`,
      sql`${time} <= ${query.to}::timestamptz`,
      ...(query.protocol ? [sql`protocol = ${query.protocol}`] : []),
      ...(query.processing ? [sql`processing = ${query.processing}`] : []),
    ];
    const result = await sql<{ peak: number | null }>`
      select max(total) as peak from (
        select sum(value) as total from ${table} where ${sql.join(filters, sql` and `)} group by ${time}
      ) per_bucket`.execute(this.db);
    return Math.round(result.rows[0]?.peak ?? 0);
  }

  /** The latest sample of every series reported since `since` (for the /metrics exposition). */
  async latest(since: Date) {
    const result = await sql<{
      account_id: string;
      stream_id: string;
      node_id: string;
      name: string;
      location: string;
      protocol: string;
      processing: string;
      value: number;
    }>`
      select distinct on (stream_id, node_id, name, location)
             account_id, stream_id, node_id, name, location, protocol, processing, value
      from metric_samples
      where at >= ${since}
      order by stream_id, node_id, name, location, at desc`.execute(this.db);
    return result.rows;
  }

  /** Drops raw samples older than `rawBefore` and minute rollups older than `minuteBefore`. */
  async expire(rawBefore: Date, minuteBefore: Date): Promise<{ samples: number; minutes: number }> {
    const samples = await this.db.deleteFrom('metric_samples').where('at', '<', rawBefore).executeTakeFirst();
    const minutes = await this.db.deleteFrom('metric_minutes').where('minute', '<', minuteBefore).executeTakeFirst();
    await this.db.deleteFrom('metric_account_minutes').where('minute', '<', minuteBefore).execute();
    return { samples: Number(samples.numDeletedRows), minutes: Number(minutes.numDeletedRows) };
  }
}

function seriesSource(grain: Grain): {
  table: RawBuilder<unknown>;
  time: RawBuilder<unknown>;
  average: RawBuilder<unknown>;
} {
  if (grain === 'raw') return { table: sql`metric_samples`, time: sql`at`, average: sql`avg(value)` };
  return {
    table: sql.table(grain === 'minute' ? 'metric_minutes' : 'metric_hours'),
    time: sql.ref(grain),
    average: sql`sum(sum) / sum(count)`,
  };
}

/** The first bucket of a grain that overlaps a window starting at `from`. */
function bucketStart(grain: Grain, from: Date): RawBuilder<unknown> {
  if (grain === 'raw') return sql`${from}::timestamptz`;
  return sql`date_trunc(${grain}, ${from}::timestamptz, 'UTC')`;
}
