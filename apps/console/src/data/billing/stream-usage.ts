import type { ApiClient } from '@streamcloud/api-client';
import { type StreamStatisticsResponse, statisticsRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { billingKeys } from './keys';

export interface StreamUsageParams {
  from: string;
  to: string;
}

export async function getStreamUsage(
  api: ApiClient,
  streamId: string,
  params: StreamUsageParams,
  signal?: AbortSignal,
): Promise<StreamStatisticsResponse> {
  const data = await api.call(statisticsRoutes.streamUsage, {
    params: { streamId, from: params.from, to: params.to },
    ...(signal ? { signal } : {}),
  });
  if ('result' in data) throw new Error('Expected usage, got metric series');
  return data;
}

export function streamUsageQueryOptions(api: ApiClient, streamId: string, params: StreamUsageParams) {
  return queryOptions({
    queryKey: billingKeys.streamUsage(streamId, params),
    queryFn: ({ signal }) => getStreamUsage(api, streamId, params, signal),
  });
}

export function useStreamUsage(streamId: string, params: StreamUsageParams) {
  return useQuery(streamUsageQueryOptions(useApi(), streamId, params));
}
