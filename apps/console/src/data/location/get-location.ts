import type { ApiClient } from '@streamcloud/api-client';
import { type Location, streamRoutes } from '@streamcloud/contract';
import { type ReadOptions, useReadById } from '../read';
import { routeQueryOptions } from '../route-query';
import { locationKeys } from './keys';

export function locationQueryOptions(api: ApiClient, ipAddress: string) {
  return {
    ...routeQueryOptions(api, streamRoutes.location, locationKeys.address(ipAddress), { query: { ipAddress } }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  };
}

/** Where an IP address is (a streamer's, a node's); nothing is asked while the address is unknown. */
export function useLocation<T = Location>(ipAddress: string | undefined, options: ReadOptions<Location, T> = {}) {
  return useReadById(locationQueryOptions, ipAddress, options);
}
