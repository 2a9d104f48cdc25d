import { PREVIEW_CREDENTIAL_TTL_SECONDS, streamRoutes } from '@streamcloud/contract';
import { useQuery } from '@tanstack/react-query';
import { streamKeys } from '@/data/streams/keys';
import { useApi } from '@/lib/services-context';

/** A new credential well before the last one expires (a session already playing is never cut). */
const RENEW_MS = (PREVIEW_CREDENTIAL_TTL_SECONDS * 1000) / 2;

/** POST /inputs/{id}/preview: the preview player's short-lived playback credential for this stream only. */
export function usePreviewCredential(streamId: string) {
  const api = useApi();
  return useQuery({
    queryKey: [...streamKeys.detail(streamId), 'preview'],
    queryFn: () => api.call(streamRoutes.createPreview, { params: { id: streamId } }),
    staleTime: RENEW_MS,
    refetchInterval: RENEW_MS,
    refetchOnWindowFocus: false,
  });
}
