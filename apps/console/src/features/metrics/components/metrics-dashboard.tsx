import { messageOr } from '@streamcloud/api-client';
import type { AccountMetric } from '@streamcloud/contract';
import { useId, useState } from 'react';
import Form from 'react-bootstrap/Form';
import { DateRangeFields } from '@/components/ui/date-range-fields';
import { PageShell } from '@/components/ui/page-shell';
import { useDashboardMetrics } from '@/data/metrics/dashboard-metrics';
import type { CustomDates } from '@/data/metrics/window';
import { formatBitrate, formatCount, isDateInput } from '@/lib/format';
import { DASHBOARD_DEFAULT_PRESET, DASHBOARD_PRESETS, NO_DATES, pickDate, presetMinutes } from '../utils/presets';
import './metrics.css';
import { DetailToggle } from './detail-toggle';
import { type ChartSeries, TimeSeriesChart } from './time-series-chart';

const VIEWERS: AccountMetric = 'ViewersTotal';

/**
 * /metrics: incoming bit rate (total, or by input type when Detailed) and viewers of every stream the caller
 * sees, over a preset period or picked days; loads on opening and refreshes every 60 s.
 */
export function MetricsDashboard() {
  const id = useId();
  const [detailed, setDetailed] = useState(false);
  const [preset, setPreset] = useState(DASHBOARD_DEFAULT_PRESET);
  const [dates, setDates] = useState<CustomDates>(NO_DATES);
  const incomingMetric: AccountMetric = detailed ? 'IncomingByOutputType' : 'IncomingTotal';
  const invalid = isDateInput(dates.from) && isDateInput(dates.to) && dates.from > dates.to;
  const metrics = useDashboardMetrics({ preset, dates, metrics: [incomingMetric, VIEWERS] }, !invalid);

  const result = metrics.isPlaceholderData ? [] : (metrics.data?.result ?? []);
  const toChart = (name: (label: string) => boolean): ChartSeries[] =>
    result
      .filter((series) => name(series.metric.labels.name))
      .map((series) => ({ label: series.metric.labels.name, values: series.values }));
  const incoming = toChart((name) => name !== VIEWERS);
  const viewers = toChart((name) => name === VIEWERS);
  const loading = metrics.isPending || metrics.isPlaceholderData;

  return (
    <PageShell title="Metrics">
      <div className="d-flex flex-wrap align-items-center gap-3 mb-3">
        <DetailToggle detailed={detailed} onChange={setDetailed} label="Incoming series" />
        <DateRangeFields
          value={dates}
          onChange={setDates}
          pick={(range, end, date) => pickDate(range, end, date, preset)}
        />
        <Form.Group controlId={`${id}-preset`} className="d-flex align-items-center gap-2">
          <Form.Label className="mb-0">Preset</Form.Label>
          <Form.Select
            value={preset}
            onChange={(event) => {
              setPreset(presetMinutes(event.target.value));
              setDates(NO_DATES);
            }}
          >
            {DASHBOARD_PRESETS.map((option) => (
              <option key={option.minutes} value={option.minutes}>
                {option.label}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      </div>
      {invalid ? <p className="text-danger">From must not be after To.</p> : null}
      {metrics.isError ? (
        <p className="text-danger">{messageOr(metrics.error, 'The metrics could not be loaded.')}</p>
      ) : null}
      <TimeSeriesChart title="Incoming" series={incoming} format={formatBitrate} loading={loading} />
      <TimeSeriesChart title="Viewers" series={viewers} format={formatCount} stepped loading={loading} />
    </PageShell>
  );
}
