import type { ApiClient } from '@streamcloud/api-client';
import { errorStatus } from '@streamcloud/api-client';
import { type StreamInput, streamRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { streamKeys } from './keys';

/** The dashboard, its relay list and its recording list are re-polled this often. */
export const DASHBOARD_POLL_MS = 5_000;

export function getStream(api: ApiClient, id: string, signal?: AbortSignal): Promise<StreamInput> {
  return api.call(streamRoutes.get, { params: { id }, ...(signal ? { signal } : {}) });
}

export function streamQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: streamKeys.detail(id),
    queryFn: ({ signal }) => getStream(api, id, signal),
    // Polled while the dashboard shows it; a stream that is gone is not asked for again.
    refetchInterval: (query) => (errorStatus(query.state.error) === 404 ? false : DASHBOARD_POLL_MS),
  });
}

export function useStream(id: string) {
  return useQuery(streamQueryOptions(useApi(), id));
}
