import {
  type AccountMetric,
  DERIVED_TOTALS,
  inputTypeName,
  type MetricSeries,
  type MetricsResponse,
  metricStepSeconds,
  type NodeMetricName,
  type StatisticMetric,
  type StatisticProtocol,
  splitMetrics,
} from '@streamcloud/contract';
import type { Scope } from '../../db/unit-of-work.js';
import type { AuthContext } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import { JsonText } from '../../lib/route.js';
import { ALL_ACCOUNTS, type Grain, type SeriesPoint } from './metrics.repository.js';
import type { PrometheusClient } from './prometheus.client.js';
import { type ExpositionSource, escapeLabel, labels } from './prometheus-text.js';
import { currentIdentity } from './stream-identity.js';
import type { StreamIdentity } from './usage.repository.js';

const DAY_MS = 24 * 3600 * 1000;
/** How far back the /metrics exposition looks for the latest sample of a series. */
export const EXPOSITION_LOOKBACK_MS = 2 * 60 * 1000;
export const STREAM_METRIC_FAMILY = 'streamcloud_stream_metric';

export interface StatisticsServiceDeps {
  uow: Scope<'usage' | 'metrics' | 'streamCatalog' | 'access'>;
  clock: Clock;
  /** Metric series come from this Prometheus server instead of the database when set. */
  prometheus: PrometheusClient | null;
  /** Raw metric samples are kept this long (and answer windows with steps under a minute). */
  rawRetentionMs: number;
  /** Per-minute rollups are kept this long; older windows are answered from hourly rollups. */
  minuteRetentionMs: number;
}

export interface WindowInput {
  from: string;
  to: string;
}

export interface Filters {
  protocol?: string | undefined;
  processing?: string | undefined;
}

interface StreamMetricSpec {
  /** The node-reported metric it reads. */
  metric: NodeMetricName;
  byLocation: boolean;
  across: 'sum' | 'avg';
}

/** How each name of `?metrics=` reads one stream's samples. */
const STREAM_SPECS: Record<StatisticMetric, StreamMetricSpec> = {
  IncomingBitrate: { metric: 'IncomingBitrate', byLocation: true, across: 'sum' },
  OutgoingBitrate: { metric: 'OutgoingBitrate', byLocation: true, across: 'sum' },
  ConcurrentViewers: { metric: 'ConcurrentViewers', byLocation: true, across: 'sum' },
  IncomingPacketsSent: { metric: 'IncomingPacketsSent', byLocation: true, across: 'sum' },
  IncomingPacketsLost: { metric: 'IncomingPacketsLost', byLocation: true, across: 'sum' },
  IncomingPacketsRetrans: { metric: 'IncomingPacketsRetrans', byLocation: true, across: 'sum' },
  IncomingPacketsDropped: { metric: 'IncomingPacketsDropped', byLocation: true, across: 'sum' },
  IncomingRTT: { metric: 'IncomingRTT', byLocation: true, across: 'avg' },
  OutgoingBitrateTotal: { metric: DERIVED_TOTALS.OutgoingBitrateTotal, byLocation: false, across: 'sum' },
  ConcurrentViewersTotal: { metric: DERIVED_TOTALS.ConcurrentViewersTotal, byLocation: false, across: 'sum' },
  IncomingTotal: { metric: 'IncomingBitrate', byLocation: false, across: 'sum' },
  IncomingByOutputType: { metric: 'IncomingBitrate', byLocation: false, across: 'sum' },
  ViewersTotal: { metric: 'ConcurrentViewers', byLocation: false, across: 'sum' },
};

/** How each account-wide name reads the account rollup. */
const ACCOUNT_SPECS: Record<AccountMetric, { metric: NodeMetricName; byProtocol: boolean }> = {
  IncomingTotal: { metric: 'IncomingBitrate', byProtocol: false },
  IncomingByOutputType: { metric: 'IncomingBitrate', byProtocol: true },
  ViewersTotal: { metric: 'ConcurrentViewers', byProtocol: false },
  OutgoingBitrateTotal: { metric: 'OutgoingBitrate', byProtocol: false },
  ConcurrentViewersTotal: { metric: 'ConcurrentViewers', byProtocol: false },
};

/** Usage reports and metric series; the rules of who sees which account. */
export class StatisticsService {
  /** Other modules' series for the exposition (the viewer analytics'), added from their `register`. */
  private readonly expositionSources: ExpositionSource[] = [];

  constructor(private readonly deps: StatisticsServiceDeps) {}

  /** Adds another module's series to `/metrics`. */
  addExpositionSource(source: ExpositionSource): void {
    this.expositionSources.push(source);
  }

  private get usageRepository() {
    return this.deps.uow.usage;
  }

  private get metricsRepository() {
    return this.deps.uow.metrics;
  }

  private accountScope(auth: AuthContext, account: string | undefined): string | null {
    return this.deps.uow.access.accountScope(auth, account);
  }

  /** GET /statistics/stream/from/{from}/to/{to}: every stream of the scope, or its metric series. */
  async usage(
    auth: AuthContext,
    window: WindowInput,
    query: Filters & { account?: string | undefined; metrics?: string | undefined },
  ): Promise<JsonText | MetricsResponse> {
    const accountId = this.accountScope(auth, query.account);
    const from = new Date(window.from);
    const to = new Date(window.to);
    if (query.metrics) {
      return this.accountMetricSeries(
        accountId ?? ALL_ACCOUNTS,
        splitMetrics(query.metrics) as AccountMetric[],
        from,
        to,
        query,
      );
    }
    // Two independent reads: on PostgreSQL they run side by side (PGlite takes them in turn).
    const [streams, concurrentSessions] = await Promise.all([
      this.usageRepository.usageJson({ accountId, protocol: query.protocol, processing: query.processing }, from, to),
      this.metricsRepository.peakSessions({
        accountId: accountId ?? ALL_ACCOUNTS,
        grain: this.isWithin(from, this.deps.minuteRetentionMs) ? 'minute' : 'hour',
        from,
        to,
        ...definedFilters(query),
      }),
    ]);
    return new JsonText(`{"streams":${streams},"concurrentSessions":${concurrentSessions}}`);
  }

  /** GET /statistics/stream/{streamId}/from/{from}/to/{to}: one stream (also a deleted one), or its series. */
  async streamUsage(
    auth: AuthContext,
    window: WindowInput & { streamId: string },
    query: Filters & { account?: string | undefined; metrics?: string | undefined },
  ): Promise<JsonText | MetricsResponse> {
    await this.deps.uow.access.require(auth, 'billedStream', window.streamId);
    const stream = await currentIdentity(this.deps.uow, window.streamId);
    if (!stream) throw notFound('Stream');
    if (query.account !== undefined) {
      this.accountScope(auth, query.account);
      if (query.account !== stream.accountId) throw notFound('Stream');
    }
    const from = new Date(window.from);
    const to = new Date(window.to);
    const matches =
      (!query.protocol || query.protocol === stream.protocol) &&
      (!query.processing || query.processing === stream.processing);
    if (query.metrics) {
      if (!matches) return { result: [] };
      return this.streamMetricSeries(stream, splitMetrics(query.metrics), from, to);
    }
    if (!matches) return new JsonText('{"streams":[]}');
    const streams = await this.usageRepository.usageJson({ accountId: null, streamId: stream.streamId }, from, to);
    return new JsonText(`{"streams":${streams}}`);
  }

  /** GET /statistics/account/{accountId}/metrics/from/{from}/to/{to}. */
  async accountMetrics(
    auth: AuthContext,
    window: WindowInput & { accountId: string },
    query: Filters & { metrics: string },
  ): Promise<MetricsResponse> {
    const accountId = this.accountScope(auth, window.accountId) ?? window.accountId;
    return this.accountMetricSeries(
      accountId,
      splitMetrics(query.metrics) as AccountMetric[],
      new Date(window.from),
      new Date(window.to),
      query,
    );
  }

  private isWithin(from: Date, retentionMs: number): boolean {
    return from.getTime() >= this.deps.clock.now().getTime() - retentionMs;
  }

  /** The finest stored grain that can answer a step, given what has expired. */
  private grainFor(step: number, from: Date, finest: Grain): Grain {
    if (finest === 'raw' && step < 60 && this.isWithin(from, this.deps.rawRetentionMs)) return 'raw';
    if (step < 3600 && this.isWithin(from, this.deps.minuteRetentionMs)) return 'minute';
    return 'hour';
  }

  private async accountMetricSeries(
    accountId: string,
    names: AccountMetric[],
    from: Date,
    to: Date,
    filters: Filters,
  ): Promise<MetricsResponse> {
    const wanted = [...new Set(names)];
    if (this.deps.prometheus) {
      const matchers = {
        ...(accountId === ALL_ACCOUNTS ? {} : { account: accountId }),
        ...definedFilters(filters),
      };
      const result: MetricSeries[] = [];
      for (const name of wanted) {
        const spec = ACCOUNT_SPECS[name];
        const by = spec.byProtocol ? 'protocol' : undefined;
        const series = await this.prometheusSeries(spec.metric, matchers, by, 'sum', from, to);
        result.push(...labelAccountSeries(name, spec.byProtocol, series));
      }
      return { result };
    }
    const baseStep = metricStepSeconds(from.getTime(), to.getTime());
    const grain = this.grainFor(baseStep, from, 'minute') as Exclude<Grain, 'raw'>;
    const step = Math.max(baseStep, grain === 'minute' ? 60 : 3600);
    const result: MetricSeries[] = [];
    for (const name of wanted) {
      const spec = ACCOUNT_SPECS[name];
      const points = await this.metricsRepository.accountSeries({
        accountId,
        name: spec.metric,
        grain,
        from,
        to,
        step,
        byProtocol: spec.byProtocol,
        ...definedFilters(filters),
      });
      result.push(...labelAccountSeries(name, spec.byProtocol, groupPoints(points)));
    }
    return { result };
  }

  private async streamMetricSeries(
    stream: StreamIdentity,
    names: StatisticMetric[],
    from: Date,
    to: Date,
  ): Promise<MetricsResponse> {
    const wanted = [...new Set(names)];
    const result: MetricSeries[] = [];
    const baseStep = metricStepSeconds(from.getTime(), to.getTime());
    const grain = this.grainFor(baseStep, from, 'raw');
    const step = Math.max(baseStep, grain === 'hour' ? 3600 : grain === 'minute' ? 60 : 0);
    for (const name of wanted) {
      const spec = STREAM_SPECS[name];
      const series = this.deps.prometheus
        ? await this.prometheusSeries(
            spec.metric,
            { stream: stream.streamId },
            spec.byLocation ? 'location' : undefined,
            spec.across,
            from,
            to,
          )
        : groupPoints(
            await this.metricsRepository.streamSeries({
              streamId: stream.streamId,
              name: spec.metric,
              grain,
              from,
              to,
              step,
              byLocation: spec.byLocation,
              across: spec.across,
            }),
          );
      const label = name === 'IncomingByOutputType' ? inputTypeName(stream.protocol as StatisticProtocol) : name;
      if (!spec.byLocation && series.size === 0) series.set('', []);
      for (const [location, values] of series) {
        result.push({ metric: { labels: { name: label, ...(location ? { location } : {}) } }, values });
      }
    }
    return { result };
  }

  /** A range query on the metrics exposed at /metrics; series keyed by the `by` label ('' without one). */
  private async prometheusSeries(
    metric: NodeMetricName,
    matchers: Record<string, string>,
    by: string | undefined,
    across: 'sum' | 'avg',
    from: Date,
    to: Date,
  ): Promise<Map<string, Array<[number, number]>>> {
    const selector = Object.entries({ name: metric, ...matchers })
      .map(([label, value]) => `${label}="${escapeLabel(value)}"`)
      .join(',');
    const query = `${across}${by ? ` by (${by})` : ''} (${STREAM_METRIC_FAMILY}{${selector}})`;
    const step = metricStepSeconds(from.getTime(), to.getTime());
    const answer = await (this.deps.prometheus as PrometheusClient).queryRange(
      query,
      Math.floor(from.getTime() / 1000),
      Math.floor(to.getTime() / 1000),
      step,
    );
    const series = new Map<string, Array<[number, number]>>();
    for (const item of answer) series.set(by ? (item.metric[by] ?? '') : '', item.values);
    return series;
  }

  /** Drops expired raw samples and minute rollups; billing data never expires. */
  async expire(): Promise<{ samples: number; minutes: number }> {
    const now = this.deps.clock.now().getTime();
    return this.metricsRepository.expire(
      new Date(now - this.deps.rawRetentionMs),
      new Date(now - this.deps.minuteRetentionMs),
    );
  }

  /** The control plane's own metrics in Prometheus' text format, labelled per account. */
  async exposition(): Promise<string> {
    const since = new Date(this.deps.clock.now().getTime() - EXPOSITION_LOOKBACK_MS);
    const [latest, totals, ...more] = await Promise.all([
      this.metricsRepository.latest(since),
      this.usageRepository.accountTotals(),
      ...this.expositionSources.map((source) => source()),
    ]);
    const lines = [
      `# HELP ${STREAM_METRIC_FAMILY} Latest value of each stream metric a node reported in the last 2 minutes (bitrates in bits per second, RTT in ms, viewers and sessions as counts).`,
      `# TYPE ${STREAM_METRIC_FAMILY} gauge`,
      ...latest.map(
        (row) =>
          `${STREAM_METRIC_FAMILY}${labels({
            account: row.account_id,
            stream: row.stream_id,
            node: row.node_id,
            location: row.location,
            protocol: row.protocol,
            processing: row.processing,
            name: row.name,
          })} ${row.value}`,
      ),
    ];
    const counters = [
      [
        'streamcloud_usage_upload_bytes_total',
        'Bytes peers sent to nodes, per account, kind, protocol and processing.',
        'upload',
      ],
      [
        'streamcloud_usage_download_bytes_total',
        'Bytes nodes sent to peers, per account, kind, protocol and processing.',
        'download',
      ],
      [
        'streamcloud_usage_duration_seconds_total',
        'Seconds of usage, per account, kind, protocol and processing.',
        'duration',
      ],
    ] as const;
    for (const [family, help, field] of counters) {
      lines.push(`# HELP ${family} ${help}`, `# TYPE ${family} counter`);
      for (const row of totals) {
        lines.push(
          `${family}${labels({ account: row.account_id, kind: row.kind, protocol: row.protocol, processing: row.processing })} ${row[field]}`,
        );
      }
    }
    for (const source of more) lines.push(...source);
    return `${lines.join('\n')}\n`;
  }
}

function definedFilters(filters: Filters): { protocol?: string; processing?: string } {
  return {
    ...(filters.protocol ? { protocol: filters.protocol } : {}),
    ...(filters.processing ? { processing: filters.processing } : {}),
  };
}

function groupPoints(points: SeriesPoint[]): Map<string, Array<[number, number]>> {
  const series = new Map<string, Array<[number, number]>>();
  for (const point of points) {
    const values = series.get(point.series) ?? [];
    values.push([Number(point.t), Number(point.v)]);
    series.set(point.series, values);
  }
  return series;
}

function labelAccountSeries(
  name: AccountMetric,
  byProtocol: boolean,
  series: Map<string, Array<[number, number]>>,
): MetricSeries[] {
  if (!byProtocol) return [{ metric: { labels: { name } }, values: series.get('') ?? [...series.values()][0] ?? [] }];
  return [...series.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([protocol, values]) => ({
      metric: { labels: { name: inputTypeName(protocol as StatisticProtocol) } },
      values,
    }));
}

export const DAYS = (days: number) => days * DAY_MS;
