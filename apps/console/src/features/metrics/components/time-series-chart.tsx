import 'uplot/dist/uPlot.min.css';
import { useEffect, useMemo, useRef } from 'react';
import uPlot from 'uplot';
import { ColumnHeaders } from '@/components/ui/column-headers';
import { Loading } from '@/components/ui/loading';

export interface ChartSeries {
  label: string;
  /** [time in seconds, value], oldest first. */
  values: ReadonlyArray<readonly [number, number]>;
}

const COLORS = ['#0d6efd', '#198754', '#dc3545', '#fd7e14', '#6f42c1', '#20c997', '#d63384', '#6c757d'];
const colorOf = (index: number) => COLORS[index % COLORS.length] as string;

/** Series on one time axis: every time any series has, and null where a series has no value. */
export function alignSeries(series: readonly ChartSeries[]): uPlot.AlignedData {
  const times = [...new Set(series.flatMap((item) => item.values.map(([time]) => time)))].sort((a, b) => a - b);
  const index = new Map(times.map((time, position) => [time, position]));
  const columns = series.map((item) => {
    const column: (number | null)[] = new Array(times.length).fill(null);
    for (const [time, value] of item.values) column[index.get(time) as number] = value;
    return column;
  });
  return [times, ...columns] as uPlot.AlignedData;
}

/** Each series' latest and highest value (null without values). */
export function legendOf(series: readonly ChartSeries[]) {
  return series.map((item) => {
    const last = item.values[item.values.length - 1];
    return {
      label: item.label,
      current: last ? last[1] : null,
      max: item.values.length > 0 ? Math.max(...item.values.map(([, value]) => value)) : null,
    };
  });
}

function chartOptions(
  width: number,
  height: number,
  labels: string[],
  format: (value: number) => string,
  stepped: boolean,
): uPlot.Options {
  const stepPaths = stepped ? uPlot.paths.stepped?.({ align: 1 }) : undefined;
  return {
    width,
    height,
    legend: { show: false },
    tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
    scales: { x: { time: true }, y: { range: (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.1 : 1] } },
    axes: [{}, { size: 80, values: (_u, splits) => splits.map((value) => (value === null ? '' : format(value))) }],
    series: [
      {},
      ...labels.map((label, index) => ({
        label,
        stroke: colorOf(index),
        width: 2,
        ...(stepPaths ? { paths: stepPaths } : {}),
      })),
    ],
  };
}

/**
 * A uPlot line chart that follows its container's width (ResizeObserver), with a legend of each series'
 * name, current and max value, and a loading indicator until the first data arrives.
 */
export function TimeSeriesChart({
  title,
  series,
  format,
  stepped = false,
  height = 240,
  loading = false,
}: {
  title: string;
  series: readonly ChartSeries[];
  format: (value: number) => string;
  stepped?: boolean;
  height?: number;
  loading?: boolean;
}) {
  const container = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const data = useMemo(() => alignSeries(series), [series]);
  const latest = useRef(data);
  latest.current = data;
  const labelKey = series.map((item) => item.label).join('\n');

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    if (typeof ResizeObserver === 'undefined') {
      throw new Error('The chart cannot observe resizing: ResizeObserver is not available');
    }
    const labels = labelKey ? labelKey.split('\n') : [];
    const chart = new uPlot(
      chartOptions(element.clientWidth || 600, height, labels, format, stepped),
      latest.current,
      element,
    );
    plot.current = chart;
    const observer = new ResizeObserver((entries) => {
      const width = Math.floor(entries[0]?.contentRect.width ?? 0);
      if (width > 0 && width !== chart.width) chart.setSize({ width, height });
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, [labelKey, height, format, stepped]);

  useEffect(() => {
    plot.current?.setData(data);
  }, [data]);

  const legend = legendOf(series);
  const waiting = loading && series.length === 0;
  return (
    <figure className="card mb-3" aria-label={title}>
      <figcaption className="card-header fw-semibold">{title}</figcaption>
      <div className="card-body">
        {waiting ? <Loading /> : null}
        <div ref={container} className="metrics-chart" aria-hidden="true" />
        {!waiting && legend.length === 0 ? <p className="text-secondary mb-0">No data</p> : null}
        {legend.length > 0 ? (
          <table className="table table-sm mb-0 mt-2 small" aria-label={`${title} legend`}>
            <ColumnHeaders columns={['Name', 'Current', 'Max']} />
            <tbody>
              {legend.map((item, index) => (
                <tr key={item.label}>
                  <th scope="row" className="fw-normal">
                    <span
                      className="metrics-swatch me-2"
                      style={{ backgroundColor: colorOf(index) }}
                      aria-hidden="true"
                    />
                    {item.label}
                  </th>
                  <td>{item.current === null ? '—' : format(item.current)}</td>
                  <td>{item.max === null ? '—' : format(item.max)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </div>
    </figure>
  );
}
