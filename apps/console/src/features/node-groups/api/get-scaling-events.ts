import type { ApiClient } from '@streamcloud/api-client';
import { nodeGroupRoutes, type ScalingEvent } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { nodeGroupKeys } from './keys';

export const SCALING_EVENTS_SHOWN = 20;
export const SCALING_EVENTS_REFRESH_MS = 30_000;

export function getScalingEvents(api: ApiClient, groupId: string, signal?: AbortSignal): Promise<ScalingEvent[]> {
  return api.call(nodeGroupRoutes.scalingEvents, {
    params: { id: groupId },
    query: { limit: SCALING_EVENTS_SHOWN },
    ...(signal ? { signal } : {}),
  });
}

export function scalingEventsQueryOptions(api: ApiClient, groupId: string) {
  return queryOptions({
    queryKey: nodeGroupKeys.events(groupId),
    queryFn: ({ signal }) => getScalingEvents(api, groupId, signal),
    refetchInterval: SCALING_EVENTS_REFRESH_MS,
  });
}

export function useScalingEvents(groupId: string) {
  return useQuery(scalingEventsQueryOptions(useApi(), groupId));
}
