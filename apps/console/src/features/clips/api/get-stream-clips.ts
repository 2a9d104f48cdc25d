import type { ApiClient } from '@streamcloud/api-client';
import { type Clip, clipRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { CLIPS_POLL_MS, clipKeys } from './keys';

/** A stream's clips, newest first. */
export function getStreamClips(api: ApiClient, streamId: string, signal?: AbortSignal): Promise<Clip[]> {
  return api.call(clipRoutes.list, { query: { streamId }, ...(signal ? { signal } : {}) });
}

const cutting = (clips: Clip[] | undefined) =>
  clips?.some((clip) => clip.state === 'Pending' || clip.state === 'Processing') ?? false;

export function streamClipsQueryOptions(api: ApiClient, streamId: string) {
  return queryOptions({
    queryKey: clipKeys.stream(streamId),
    queryFn: ({ signal }) => getStreamClips(api, streamId, signal),
    // Re-read while a clip is being cut (it is Ready within seconds), not otherwise.
    refetchInterval: (query) => (cutting(query.state.data) ? CLIPS_POLL_MS : false),
  });
}

export function useStreamClips(streamId: string) {
  return useQuery(streamClipsQueryOptions(useApi(), streamId));
}
