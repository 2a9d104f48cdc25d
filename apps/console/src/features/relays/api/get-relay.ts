import type { ApiClient } from '@streamcloud/api-client';
import { type Relay, relayRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { relayKeys } from './keys';

/** One relay; the RTMP stream key is never answered (only whether one is set). */
export function getRelay(api: ApiClient, id: string, signal?: AbortSignal): Promise<Relay> {
  return api.call(relayRoutes.get, { params: { id }, ...(signal ? { signal } : {}) });
}

export function relayQueryOptions(api: ApiClient, id: string) {
  return queryOptions({ queryKey: relayKeys.detail(id), queryFn: ({ signal }) => getRelay(api, id, signal) });
}

export function useRelay(id: string) {
  return useQuery(relayQueryOptions(useApi(), id));
}
