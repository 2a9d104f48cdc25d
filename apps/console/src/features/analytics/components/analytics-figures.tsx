import type { AnalyticsGroup, ViewerAnalytics } from '@streamcloud/contract';
import { formatCount } from '@/lib/format';
import { formatMs, formatRatio, formatWatch } from '../utils/analytics-format';

const BREAKDOWNS: Array<{ key: keyof ViewerAnalytics['breakdowns']; title: string; column: string }> = [
  { key: 'country', title: 'By country', column: 'Country' },
  { key: 'browser', title: 'By browser', column: 'Browser' },
  { key: 'device', title: 'By device', column: 'Device' },
  { key: 'rendition', title: 'By rendition', column: 'Rendition' },
];

/** The figures of a window (viewers, watch time, startup, first frame, rebuffering, errors, latency) and its breakdowns. */
export function AnalyticsFigures({ analytics }: { analytics: ViewerAnalytics }) {
  const figures: Array<[string, string]> = [
    ['Viewers', formatCount(analytics.viewers)],
    ['Watch time', formatWatch(analytics.watchMs)],
    ['Startup time (median / p95)', `${formatMs(analytics.startupMs.median)} / ${formatMs(analytics.startupMs.p95)}`],
    ['Time to first frame (median / p95)', `${formatMs(analytics.ttffMs.median)} / ${formatMs(analytics.ttffMs.p95)}`],
    ['Rebuffer ratio', formatRatio(analytics.rebufferRatio)],
    ['Stalls', formatCount(analytics.rebufferCount)],
    ['Error rate', formatRatio(analytics.errorRate)],
    [
      'Latency to live (median / p95)',
      `${formatMs(analytics.latencyMs.median)} / ${formatMs(analytics.latencyMs.p95)}`,
    ],
    ['Previews', formatCount(analytics.previews)],
  ];
  return (
    <>
      <dl className="row row-cols-2 row-cols-md-3 g-2 mb-3">
        {figures.map(([label, value]) => (
          <div key={label} className="col">
            <dt className="small text-secondary fw-normal">{label}</dt>
            <dd className="mb-0 fw-semibold">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="row row-cols-1 row-cols-lg-2 g-3">
        {BREAKDOWNS.map(({ key, title, column }) => (
          <div key={key} className="col">
            <Breakdown title={title} column={column} groups={analytics.breakdowns[key]} />
          </div>
        ))}
      </div>
    </>
  );
}

function Breakdown({ title, column, groups }: { title: string; column: string; groups: AnalyticsGroup[] }) {
  return (
    <table className="table table-sm mb-0">
      <caption className="caption-top">{title}</caption>
      <thead>
        <tr>
          <th scope="col">{column}</th>
          <th scope="col">Viewers</th>
          <th scope="col">Watch time</th>
          <th scope="col">Rebuffer ratio</th>
        </tr>
      </thead>
      <tbody>
        {groups.length === 0 ? (
          <tr>
            <td colSpan={4} className="text-secondary">
              —
            </td>
          </tr>
        ) : (
          groups.map((group) => (
            <tr key={group.value}>
              <th scope="row" className="fw-normal">
                {group.value}
              </th>
              <td>{formatCount(group.viewers)}</td>
              <td>{formatWatch(group.watchMs)}</td>
              <td>{formatRatio(group.rebufferRatio)}</td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
