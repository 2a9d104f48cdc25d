import { useState } from 'react';
import { PageShell } from '@/components/ui/page-shell';
import { useAccountAnalytics } from '@/data/analytics/reads';
import { DEFAULT_WINDOW_MINUTES } from '../utils/analytics-format';
import { ANALYTICS_TEXTS } from '../utils/messages';
import { AnalyticsFigures } from './analytics-figures';
import { LoadError } from './load-error';
import { WindowSelect } from './window-select';

/** /analytics: the viewers' experience over the account's streams (every account's for an ADMIN). */
export function AccountAnalyticsScreen() {
  const [minutes, setMinutes] = useState(DEFAULT_WINDOW_MINUTES);
  const analytics = useAccountAnalytics(minutes);
  return (
    <PageShell title={ANALYTICS_TEXTS.accountTitle} actions={<WindowSelect minutes={minutes} onChange={setMinutes} />}>
      {analytics.isError ? <LoadError error={analytics.error} fallback={ANALYTICS_TEXTS.loadFailed} /> : null}
      {analytics.data?.viewers === 0 && analytics.data.previews === 0 ? (
        <p className="text-secondary">{ANALYTICS_TEXTS.noBeacons}</p>
      ) : null}
      {analytics.data ? <AnalyticsFigures analytics={analytics.data} /> : null}
    </PageShell>
  );
}
