import type { ApiClient } from '@streamcloud/api-client';
import { type Location, streamRoutes } from '@streamcloud/contract';
import { queryOptions } from '@tanstack/react-query';
import { type ReadOptions, useReadById } from '../read';
import { locationKeys } from './keys';

export function getLocation(api: ApiClient, ipAddress: string, signal?: AbortSignal): Promise<Location> {
  return api.call(streamRoutes.location, { query: { ipAddress }, ...(signal ? { signal } : {}) });
}

export function locationQueryOptions(api: ApiClient, ipAddress: string) {
  return queryOptions({
    queryKey: locationKeys.address(ipAddress),
    queryFn: ({ signal }) => getLocation(api, ipAddress, signal),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

/** Where an IP address is (a streamer's, a node's); nothing is asked while the address is unknown. */
export function useLocation<T = Location>(ipAddress: string | undefined, options: ReadOptions<Location, T> = {}) {
  return useReadById(locationQueryOptions, ipAddress, options);
}
