import type { MetricsReport, UsageReport } from '@streamcloud/contract';
import type { Scope } from '../../db/unit-of-work.js';
import { measuredAt, type ReportContext } from '../nodes/index.js';
import { type MetricSample, SESSIONS_METRIC } from './metrics.repository.js';
import { recordIdentities } from './stream-identity.js';
import type { DailyUsage, HourlyUsage, StreamDailyUsage, StreamIdentity, UsageRecord } from './usage.repository.js';

const HOUR_MS = 3_600_000;

/** What the usage and metrics reports write: usage, metrics, and the identities of the streams they name. */
type ReportsScope = Scope<'usage' | 'metrics' | 'streamCatalog'>;

/**
 * Usage reports become raw records, and are added to the hourly rollup (per stream, hour, node, kind and
 * incoming session), its per-day sums (the whole days of a report's window) and the daily account rollup. Usage of a stream never seen (no stream, no earlier
 * usage) changes nothing; any node may report a stream (edges serve and relay streams they do not ingest).
 */
export async function handleUsageReports(context: ReportContext<ReportsScope>, reports: UsageReport[]): Promise<void> {
  const { uow, node, receivedAt } = context;
  const { usage } = uow;
  const streams = await recordIdentities(
    uow,
    reports.map((report) => report.streamId),
  );
  const records: UsageRecord[] = [];
  for (const report of reports) {
    const stream = streams.get(report.streamId);
    if (!stream) continue;
    records.push(...recordsOf(report, stream, node.id, measuredAt(context, report.at), receivedAt));
  }
  if (records.length === 0) return;
  await usage.rememberNode(node.id, node.name);
  await usage.insertRecords(records);
  const hourly = hourlyOf(records);
  await usage.addHourly(hourly);
  await usage.addStreamDaily(streamDailyOf(hourly));
  await usage.addDaily(dailyOf(records));
}

function recordsOf(
  report: UsageReport,
  stream: StreamIdentity,
  nodeId: string,
  at: Date,
  receivedAt: Date,
): UsageRecord[] {
  const base = {
    received_at: receivedAt,
    at,
    node_id: nodeId,
    stream_id: stream.streamId,
    account_id: stream.accountId,
    protocol: stream.protocol,
    processing: report.processing ?? stream.processing,
  };
  const records: UsageRecord[] = (report.incoming ?? []).map((session) => ({
    ...base,
    kind: 'incoming',
    session_id: session.sessionId,
    started_at: new Date(session.startedAt),
    duration: session.duration,
    upload: session.upload,
    download: session.download,
  }));
  for (const kind of ['internode', 'outgoing'] as const) {
    const traffic = report[kind];
    if (!traffic) continue;
    records.push({ ...base, kind, session_id: null, started_at: null, ...traffic });
  }
  return records;
}

/** Sums items into rows by key: an item makes the row of a new key and is added to the row of a known one. */
function sumByKey<Item, Row>(
  items: Item[],
  keyOf: (item: Item) => string,
  rowOf: (item: Item) => Row,
  add: (row: Row, item: Item) => void,
): Row[] {
  const rows = new Map<string, Row>();
  for (const item of items) {
    const key = keyOf(item);
    const row = rows.get(key);
    if (row) add(row, item);
    else rows.set(key, rowOf(item));
  }
  return [...rows.values()];
}

type Amounts = Pick<UsageRecord, 'duration' | 'upload' | 'download'>;
type SessionSpan = Pick<HourlyUsage, 'started_at' | 'ended_at'>;

function addAmounts(row: Amounts, item: Amounts) {
  row.duration += item.duration;
  row.upload += item.upload;
  row.download += item.download;
}

/** Widens a row's span to take in a session that started at `startedAt` (if known) and reached `endedAt`. */
function widenSpan(row: SessionSpan, startedAt: Date | null, endedAt: Date) {
  if (startedAt && (!row.started_at || startedAt < row.started_at)) row.started_at = startedAt;
  if (endedAt > row.ended_at) row.ended_at = endedAt;
}

const hourOf = (record: UsageRecord) => new Date(Math.floor(record.at.getTime() / HOUR_MS) * HOUR_MS);

const hourlyOf = (records: UsageRecord[]): HourlyUsage[] =>
  sumByKey(
    records,
    (record) =>
      [record.stream_id, hourOf(record).getTime(), record.node_id, record.kind, record.session_id ?? ''].join('|'),
    (record) => ({
      stream_id: record.stream_id,
      hour: hourOf(record),
      node_id: record.node_id,
      kind: record.kind,
      session_id: record.session_id ?? '',
      account_id: record.account_id,
      protocol: record.protocol,
      processing: record.processing,
      started_at: record.started_at,
      ended_at: record.at,
      duration: record.duration,
      upload: record.upload,
      download: record.download,
    }),
    (row, record) => {
      addAmounts(row, record);
      widenSpan(row, record.started_at, record.at);
    },
  );

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** The hourly rows summed per UTC day, as the hourly rollup sums them per hour. */
const streamDailyOf = (hourly: HourlyUsage[]): StreamDailyUsage[] =>
  sumByKey(
    hourly,
    (hour) => [hour.stream_id, dayOf(hour.hour), hour.node_id, hour.kind, hour.session_id].join('|'),
    ({ hour, ...rest }) => ({ ...rest, day: dayOf(hour) }),
    (row, hour) => {
      addAmounts(row, hour);
      widenSpan(row, hour.started_at, hour.ended_at);
    },
  );

const dailyOf = (records: UsageRecord[]): DailyUsage[] =>
  sumByKey(
    records,
    (record) => [record.account_id, dayOf(record.at), record.kind, record.protocol, record.processing].join('|'),
    (record) => ({
      account_id: record.account_id,
      day: dayOf(record.at),
      kind: record.kind,
      protocol: record.protocol,
      processing: record.processing,
      duration: record.duration,
      upload: record.upload,
      download: record.download,
    }),
    addAmounts,
  );

/**
 * Metrics reports become raw samples (one per stream, metric and instant, labelled by the node and a
 * location: the stream's, the report's, else the node's location code) and are added to the rollups.
 * Samples of a stream never seen change nothing.
 */
export async function handleMetricsReports(
  context: ReportContext<ReportsScope>,
  reports: MetricsReport[],
): Promise<void> {
  const { uow, node } = context;
  const streams = await recordIdentities(
    uow,
    reports.flatMap((report) => report.streams.map((entry) => entry.streamId)),
  );
  const nodeLocation = (await uow.metrics.nodeLocation(node.id)) ?? '';
  const samples: MetricSample[] = [];
  for (const report of reports) {
    samples.push(...samplesOf(report, streams, node.id, nodeLocation, measuredAt(context, report.at)));
  }
  await uow.metrics.add(samples);
}

function samplesOf(
  report: MetricsReport,
  streams: Map<string, StreamIdentity>,
  nodeId: string,
  nodeLocation: string,
  at: Date,
): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const entry of report.streams) {
    const stream = streams.get(entry.streamId);
    if (!stream) continue;
    const base = {
      at,
      stream_id: stream.streamId,
      node_id: nodeId,
      location: entry.location ?? report.location ?? nodeLocation,
      account_id: stream.accountId,
      protocol: stream.protocol,
      processing: stream.processing,
    };
    for (const [name, value] of Object.entries(entry.values)) {
      if (value !== undefined) samples.push({ ...base, name, value });
    }
    if (entry.sessions !== undefined) samples.push({ ...base, name: SESSIONS_METRIC, value: entry.sessions });
  }
  return samples;
}
