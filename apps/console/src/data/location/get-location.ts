import type { ApiClient } from '@streamcloud/api-client';
import { type Location, streamRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { streamKeys } from '@/data/streams/keys';
import { useApi } from '@/lib/services-context';

export function getLocation(api: ApiClient, ipAddress: string, signal?: AbortSignal): Promise<Location> {
  return api.call(streamRoutes.location, { query: { ipAddress }, ...(signal ? { signal } : {}) });
}

export function locationQueryOptions(api: ApiClient, ipAddress: string) {
  return queryOptions({
    queryKey: streamKeys.location(ipAddress),
    queryFn: ({ signal }) => getLocation(api, ipAddress, signal),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

/** Where an IP address is; nothing is asked while the address is null. */
export function useLocation(ipAddress: string | null) {
  const api = useApi();
  return useQuery({ ...locationQueryOptions(api, ipAddress ?? ''), enabled: ipAddress !== null });
}
