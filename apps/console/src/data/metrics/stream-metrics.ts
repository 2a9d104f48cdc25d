import type { ApiClient } from '@streamcloud/api-client';
import { type MetricsResponse, type StatisticMetric, statisticsRoutes } from '@streamcloud/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { metricsKeys } from './keys';

/** A stream's metrics panel reads its series again this often while it is shown. */
export const PANEL_REFRESH_MS = 10_000;

export interface StreamMetricsParams {
  /** The last this many minutes. */
  minutes: number;
  metrics: StatisticMetric[];
}

export async function getStreamMetrics(
  api: ApiClient,
  streamId: string,
  params: StreamMetricsParams,
  now: number,
  signal?: AbortSignal,
): Promise<MetricsResponse> {
  const data = await api.call(statisticsRoutes.streamUsage, {
    params: {
      streamId,
      from: new Date(now - params.minutes * 60_000).toISOString(),
      to: new Date(now).toISOString(),
    },
    query: { metrics: params.metrics.join(',') },
    ...(signal ? { signal } : {}),
  });
  if (!('result' in data)) throw new Error('Expected metric series, got usage');
  return data;
}

export function streamMetricsQueryOptions(api: ApiClient, streamId: string, params: StreamMetricsParams) {
  return queryOptions({
    queryKey: metricsKeys.stream(streamId, params),
    queryFn: ({ signal }) => getStreamMetrics(api, streamId, params, Date.now(), signal),
    refetchInterval: PANEL_REFRESH_MS,
  });
}

export function useStreamMetrics(streamId: string, params: StreamMetricsParams) {
  return useQuery({
    ...streamMetricsQueryOptions(useApi(), streamId, params),
    enabled: params.metrics.length > 0,
    placeholderData: keepPreviousData,
  });
}
