import type { ApiClient } from '@streamcloud/api-client';
import { type CaptureSource, streamRoutes, type TrackInfo } from '@streamcloud/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { recordingKeys } from './keys';

/** The tracks nodes reported for a stream's source; the 'Current tracks' preset is made of them. */
export function getStreamTracks(
  api: ApiClient,
  streamId: string,
  source: CaptureSource,
  signal?: AbortSignal,
): Promise<TrackInfo[]> {
  const type = source === 'Incoming' ? 'incoming' : 'outgoing';
  return api.call(streamRoutes.streamInfo, { params: { streamId, type }, ...(signal ? { signal } : {}) });
}

/** Reads the current tracks on demand (always fresh: they change while the stream runs). */
export function useFetchStreamTracks() {
  const api = useApi();
  const queryClient = useQueryClient();
  return (streamId: string, source: CaptureSource) =>
    queryClient.fetchQuery({
      queryKey: recordingKeys.tracks(streamId, source === 'Incoming' ? 'incoming' : 'outgoing'),
      queryFn: ({ signal }) => getStreamTracks(api, streamId, source, signal),
      staleTime: 0,
    });
}
