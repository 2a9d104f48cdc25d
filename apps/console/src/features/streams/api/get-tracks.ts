import type { ApiClient } from '@streamcloud/api-client';
import { streamRoutes, type TrackInfo, type TrackSource } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { streamKeys } from '@/data/streams/keys';
import { useApi } from '@/lib/services-context';
import { DASHBOARD_POLL_MS } from './dashboard-poll';

export function getTracks(
  api: ApiClient,
  streamId: string,
  type: TrackSource,
  signal?: AbortSignal,
): Promise<TrackInfo[]> {
  return api.call(streamRoutes.streamInfo, { params: { streamId, type }, ...(signal ? { signal } : {}) });
}

export function tracksQueryOptions(api: ApiClient, streamId: string, type: TrackSource) {
  return queryOptions({
    queryKey: streamKeys.tracks(streamId, type),
    queryFn: ({ signal }) => getTracks(api, streamId, type, signal),
    refetchInterval: DASHBOARD_POLL_MS,
  });
}

/** The tracks a node reported for a stream's push (incoming) or what its viewers get (outgoing); polled with the dashboard. */
export function useTracks(streamId: string, type: TrackSource) {
  return useQuery(tracksQueryOptions(useApi(), streamId, type));
}
