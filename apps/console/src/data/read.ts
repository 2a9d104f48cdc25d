import type { ApiClient } from '@streamcloud/api-client';
import { type QueryKey, type UseQueryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';

/**
 * What a screen may add to a shared read: polling, `select`, `enabled`, `retry`, `staleTime`... The key
 * and the fetch stay the resource's own, so every screen reads (and every mutation refreshes) one copy.
 */
export type ReadOptions<TQueryFnData, TData = TQueryFnData> = Omit<
  UseQueryOptions<TQueryFnData, Error, TData, QueryKey>,
  'queryKey' | 'queryFn'
>;

/** A resource's own query options (`queryOptions(…)`): its key and its fetch. */
type ResourceQuery<TQueryFnData, TKey extends QueryKey> = UseQueryOptions<TQueryFnData, Error, TQueryFnData, TKey>;

/** A read of a resource's query options with the screen's own options on top. */
export function useRead<TQueryFnData, TData, TKey extends QueryKey>(
  resource: (api: ApiClient) => ResourceQuery<TQueryFnData, TKey>,
  options: ReadOptions<TQueryFnData, TData>,
) {
  // The screen's options only add to the resource's: its key, and so its data, stay the same type.
  return useQuery({ ...resource(useApi()), ...options } as UseQueryOptions<TQueryFnData, Error, TData, TKey>);
}

/** A read of one resource by its id; waits while the id is unknown (a recording's stream, say). */
export function useReadById<TQueryFnData, TData, TKey extends QueryKey>(
  resource: (api: ApiClient, id: string) => ResourceQuery<TQueryFnData, TKey>,
  id: string | undefined,
  options: ReadOptions<TQueryFnData, TData>,
) {
  return useRead((api) => resource(api, id ?? ''), {
    ...options,
    enabled: id !== undefined && options.enabled !== false,
  });
}
