import type { ApiClient } from '@streamcloud/api-client';
import { type IngressEndpoint, streamRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { streamKeys } from '@/data/streams/keys';
import { useApi } from '@/lib/services-context';
import { DASHBOARD_POLL_MS } from './dashboard-poll';

export function getIngress(api: ApiClient, streamId: string, signal?: AbortSignal): Promise<IngressEndpoint> {
  return api.call(streamRoutes.getIngress, { params: { streamId }, ...(signal ? { signal } : {}) });
}

export function ingressQueryOptions(api: ApiClient, streamId: string) {
  return queryOptions({
    queryKey: streamKeys.ingress(streamId),
    queryFn: ({ signal }) => getIngress(api, streamId, signal),
    refetchInterval: DASHBOARD_POLL_MS,
    retry: false,
  });
}

/**
 * The stream's GSLB ingress endpoint, asked for only when the stream has one (gslb); a failure shows
 * nothing (it fails silently).
 */
export function useIngress(streamId: string, enabled: boolean) {
  return useQuery({ ...ingressQueryOptions(useApi(), streamId), enabled });
}
