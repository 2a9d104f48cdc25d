import { type CaptureSource, streamRoutes } from '@streamcloud/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { routeQueryOptions } from '../route-query';
import { recordingKeys } from './keys';

/**
 * Reads the tracks nodes reported for a stream's source on demand (always fresh: they change while the
 * stream runs); the 'Current tracks' preset is made of them.
 */
export function useFetchStreamTracks() {
  const api = useApi();
  const queryClient = useQueryClient();
  return (streamId: string, source: CaptureSource) => {
    const type = source === 'Incoming' ? 'incoming' : 'outgoing';
    return queryClient.fetchQuery({
      ...routeQueryOptions(api, streamRoutes.streamInfo, recordingKeys.tracks(streamId, type), {
        params: { streamId, type },
      }),
      staleTime: 0,
    });
  };
}
