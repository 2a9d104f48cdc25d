import { useState } from 'react';
import { useStreamAnalytics } from '@/data/analytics/reads';
import { DEFAULT_WINDOW_MINUTES } from '../utils/analytics-format';
import { ANALYTICS_TEXTS } from '../utils/messages';
import { AnalyticsFigures } from './analytics-figures';
import { LoadError } from './load-error';
import { QualityRulePanel } from './quality-rule-panel';
import { SessionList } from './session-list';
import { WindowSelect } from './window-select';

/** The stream dashboard's card of its viewers' experience, from the players' beacons, and its quality alert (issue 37). */
export function StreamAnalyticsCard({ streamId }: { streamId: string }) {
  const [minutes, setMinutes] = useState(DEFAULT_WINDOW_MINUTES);
  const analytics = useStreamAnalytics(streamId, minutes);
  return (
    <section className="card mb-3" aria-label={ANALYTICS_TEXTS.streamTitle}>
      <div className="card-header d-flex flex-wrap align-items-center gap-3">
        <h2 className="h6 mb-0 me-auto">{ANALYTICS_TEXTS.streamTitle}</h2>
        <WindowSelect minutes={minutes} onChange={setMinutes} />
      </div>
      <div className="card-body">
        <QualityRulePanel streamId={streamId} />
        {analytics.isError ? <LoadError error={analytics.error} fallback={ANALYTICS_TEXTS.loadFailed} /> : null}
        {analytics.data ? <AnalyticsFigures analytics={analytics.data} /> : null}
        <SessionList streamId={streamId} minutes={minutes} />
      </div>
    </section>
  );
}
