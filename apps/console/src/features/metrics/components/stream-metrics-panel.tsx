import { messageOr } from '@streamcloud/api-client';
import { type InputFormat, type MetricSeries, PUSH_FORMATS, type StatisticMetric } from '@streamcloud/contract';
import { useId, useState } from 'react';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router';
import { useStreamMetrics } from '@/data/metrics/stream-metrics';
import { formatBitrate, formatCount, formatPacketRate, formatRtt } from '@/lib/format';
import { PANEL_DEFAULT_MINUTES, PANEL_PRESETS, presetMinutes } from '../utils/presets';
import './metrics.css';
import { DetailToggle } from './detail-toggle';
import { type ChartSeries, TimeSeriesChart } from './time-series-chart';

interface ChartDef {
  key: string;
  label: string;
  /** The series in Totals mode and in Detailed mode (per location). */
  total: StatisticMetric;
  detailed: StatisticMetric;
  format: (value: number) => string;
  stepped?: boolean;
  byDefault: boolean;
  /** The stream formats whose transport the node measures this for (packets, RTT); absent: every format. */
  measuredFor?: readonly InputFormat[];
}

/** Packets and RTT: from WebRTC's receive statistics and ICE checks, and from SRT's packet headers. */
const TRANSPORT_MEASURED: readonly InputFormat[] = ['WebRTC', 'SRT'];

export const PANEL_CHARTS: readonly ChartDef[] = [
  {
    key: 'incoming',
    label: 'Incoming bitrate',
    total: 'IncomingTotal',
    detailed: 'IncomingBitrate',
    format: formatBitrate,
    byDefault: true,
  },
  {
    key: 'viewers',
    label: 'Viewers',
    total: 'ConcurrentViewersTotal',
    detailed: 'ConcurrentViewers',
    format: formatCount,
    stepped: true,
    byDefault: true,
  },
  {
    key: 'outgoing',
    label: 'Outgoing bitrate',
    total: 'OutgoingBitrateTotal',
    detailed: 'OutgoingBitrate',
    format: formatBitrate,
    byDefault: true,
  },
  {
    key: 'packets-sent',
    label: 'Packets sent',
    total: 'IncomingPacketsSent',
    detailed: 'IncomingPacketsSent',
    format: formatPacketRate,
    byDefault: false,
    measuredFor: TRANSPORT_MEASURED,
  },
  {
    key: 'packets-lost',
    label: 'Packets lost',
    total: 'IncomingPacketsLost',
    detailed: 'IncomingPacketsLost',
    format: formatPacketRate,
    byDefault: false,
    measuredFor: TRANSPORT_MEASURED,
  },
  {
    key: 'packets-retransmitted',
    label: 'Packets retransmitted',
    total: 'IncomingPacketsRetrans',
    detailed: 'IncomingPacketsRetrans',
    format: formatPacketRate,
    byDefault: false,
    // A WebRTC retransmission (no RTX) looks like a late packet.
    measuredFor: ['SRT'],
  },
  {
    key: 'packets-dropped',
    label: 'Packets dropped',
    total: 'IncomingPacketsDropped',
    detailed: 'IncomingPacketsDropped',
    format: formatPacketRate,
    byDefault: false,
    // Packets dropped inside the receiver (too late to play) are seen by no format's tools.
    measuredFor: [],
  },
  {
    key: 'rtt',
    label: 'RTT',
    total: 'IncomingRTT',
    detailed: 'IncomingRTT',
    format: formatRtt,
    byDefault: false,
    measuredFor: TRANSPORT_MEASURED,
  },
];

/** Whether the node measures the chart's metric for a stream of `format` (unknown: assume it does). */
const isMeasured = (chart: ChartDef, format: InputFormat | undefined) =>
  !format || !chart.measuredFor || chart.measuredFor.includes(format);

/** What a chart the stream's format cannot have says instead: "Not measured for RTMP pushes". */
export const notMeasuredText = (format: InputFormat) =>
  `Not measured for ${format} ${(PUSH_FORMATS as readonly InputFormat[]).includes(format) ? 'pushes' : 'streams'}`;

function NotMeasured({ title, format }: { title: string; format: InputFormat }) {
  return (
    <figure className="card mb-3" aria-label={title}>
      <figcaption className="card-header fw-semibold">{title}</figcaption>
      <div className="card-body">
        <p className="text-secondary mb-0">{notMeasuredText(format)}</p>
      </div>
    </figure>
  );
}

const seriesLabel = (series: MetricSeries) =>
  series.metric.labels.location
    ? `${series.metric.labels.name} (${series.metric.labels.location})`
    : series.metric.labels.name;

/**
 * A stream's metrics: compact on the stream dashboard (5 minutes by default), full at /streams/metrics/{id}
 * (30 minutes). Reloads when the duration, Totals/Detailed or the chart selection changes, and every 10 s.
 * A chart the stream's format cannot have (packets of an RTMP push) says so instead of staying empty.
 */
export function StreamMetricsPanel({
  streamId,
  format,
  compact = false,
}: {
  streamId: string;
  /** The stream's input format; undefined while unknown (every chart is asked for). */
  format?: InputFormat | undefined;
  compact?: boolean;
}) {
  const id = useId();
  const [minutes, setMinutes] = useState<number>(compact ? PANEL_DEFAULT_MINUTES.compact : PANEL_DEFAULT_MINUTES.full);
  const [detailed, setDetailed] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(
    () => new Set(PANEL_CHARTS.filter((chart) => chart.byDefault).map((chart) => chart.key)),
  );
  const charts = PANEL_CHARTS.filter((chart) => selected.has(chart.key));
  const metricOf = (chart: ChartDef) => (detailed ? chart.detailed : chart.total);
  const measured = charts.filter((chart) => isMeasured(chart, format));
  const query = useStreamMetrics(streamId, { minutes, metrics: [...new Set(measured.map(metricOf))] });
  const result = query.isPlaceholderData ? [] : (query.data?.result ?? []);
  const loading = query.isPending || query.isPlaceholderData;

  const toggle = (key: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });

  const seriesOf = (chart: ChartDef): ChartSeries[] =>
    result
      .filter((series) => series.metric.labels.name === metricOf(chart))
      .map((series) => ({ label: seriesLabel(series), values: series.values }));

  return (
    <section className="card mb-3" aria-label="Stream metrics">
      <div className="card-header d-flex flex-wrap align-items-center gap-3">
        <h2 className="h6 mb-0 me-auto">Metrics</h2>
        <DetailToggle detailed={detailed} onChange={setDetailed} label="Series" />
        <Form.Group controlId={`${id}-duration`} className="d-flex align-items-center gap-2">
          <Form.Label className="mb-0">Duration</Form.Label>
          <Form.Select size="sm" value={minutes} onChange={(event) => setMinutes(presetMinutes(event.target.value))}>
            {PANEL_PRESETS.map((preset) => (
              <option key={preset.minutes} value={preset.minutes}>
                {preset.label}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        {compact ? (
          <Link to={`/streams/metrics/${streamId}`} className="small">
            Full view
          </Link>
        ) : null}
      </div>
      <div className="card-body">
        <fieldset className="d-flex flex-wrap gap-3 mb-3">
          <legend className="visually-hidden">Charts</legend>
          {PANEL_CHARTS.map((chart) => (
            <Form.Check
              key={chart.key}
              type="switch"
              id={`${id}-chart-${chart.key}`}
              label={chart.label}
              checked={selected.has(chart.key)}
              onChange={(event) => toggle(chart.key, event.target.checked)}
            />
          ))}
        </fieldset>
        {query.isError ? (
          <p className="text-danger">{messageOr(query.error, 'The metrics could not be loaded.')}</p>
        ) : null}
        <div className={compact ? 'row row-cols-1 row-cols-lg-2 g-3' : ''}>
          {charts.map((chart) => (
            <div key={chart.key} className={compact ? 'col' : undefined}>
              {format && !isMeasured(chart, format) ? (
                <NotMeasured title={chart.label} format={format} />
              ) : (
                <TimeSeriesChart
                  title={chart.label}
                  series={seriesOf(chart)}
                  format={chart.format}
                  stepped={chart.stepped ?? false}
                  height={compact ? 160 : 260}
                  loading={loading}
                />
              )}
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}
