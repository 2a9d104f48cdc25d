import type { ApiClient } from '@streamcloud/api-client';
import { type AccountMetric, type MetricsResponse, statisticsRoutes } from '@streamcloud/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { metricsKeys } from './keys';
import { type CustomDates, windowOf } from './window';

/** The dashboard's series are read again this often while it is shown. */
export const DASHBOARD_REFRESH_MS = 60_000;

export interface DashboardMetricsParams {
  preset: number;
  dates: CustomDates;
  metrics: AccountMetric[];
}

/** Series of every stream the caller sees (USER: its own; ADMIN: every account), for the dashboard's window. */
export async function getDashboardMetrics(
  api: ApiClient,
  params: DashboardMetricsParams,
  now: number,
  signal?: AbortSignal,
): Promise<MetricsResponse> {
  const window = windowOf(params.preset, params.dates, now);
  const data = await api.call(statisticsRoutes.usage, {
    params: { from: window.from.toISOString(), to: window.to.toISOString() },
    query: { metrics: params.metrics.join(',') },
    ...(signal ? { signal } : {}),
  });
  if (!('result' in data)) throw new Error('Expected metric series, got usage');
  return data;
}

export function dashboardMetricsQueryOptions(api: ApiClient, params: DashboardMetricsParams) {
  return queryOptions({
    queryKey: metricsKeys.dashboard(params),
    // A preset window ends now: each load (and each refresh) moves it.
    queryFn: ({ signal }) => getDashboardMetrics(api, params, Date.now(), signal),
    refetchInterval: DASHBOARD_REFRESH_MS,
  });
}

export function useDashboardMetrics(params: DashboardMetricsParams, enabled = true) {
  return useQuery({ ...dashboardMetricsQueryOptions(useApi(), params), enabled, placeholderData: keepPreviousData });
}
