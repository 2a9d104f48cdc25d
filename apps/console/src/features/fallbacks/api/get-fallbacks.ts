import type { ApiClient } from '@streamcloud/api-client';
import { errorStatus } from '@streamcloud/api-client';
import { type Fallback, fallbackRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { fallbackKeys } from './keys';

/** Nodes report each fallback's state: the list is re-polled like the other stream dashboards. */
export const FALLBACKS_POLL_MS = 5_000;

export function getFallbacks(api: ApiClient, streamId: string, signal?: AbortSignal): Promise<Fallback[]> {
  return api.call(fallbackRoutes.list, { query: { streamId }, ...(signal ? { signal } : {}) });
}

export function fallbacksQueryOptions(api: ApiClient, streamId: string) {
  return queryOptions({
    queryKey: fallbackKeys.list(streamId),
    queryFn: ({ signal }) => getFallbacks(api, streamId, signal),
    refetchInterval: (query) => (errorStatus(query.state.error) === 404 ? false : FALLBACKS_POLL_MS),
  });
}

export function useFallbacks(streamId: string) {
  return useQuery(fallbacksQueryOptions(useApi(), streamId));
}
