import type { ApiClient } from '@streamcloud/api-client';
import { type RecordingPlayback, recordingRoutes } from '@streamcloud/contract';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { recordingKeys } from './keys';

/** Links are good for 4 hours: asked again after one, so a page left open keeps working ones. */
const PLAYBACK_LINKS_STALE_MS = 3_600_000;

/**
 * POST /recordings/{id}/playback (it changes nothing: read as a query), with the links made absolute on the
 * API's origin (the console may be served from elsewhere).
 */
export async function getRecordingPlayback(api: ApiClient, id: string): Promise<RecordingPlayback> {
  const playback = await api.call(recordingRoutes.playback, { params: { id } });
  const apiUrl = new URL(api.url(recordingRoutes.playback, { params: { id } }), window.location.href);
  const absolute = (link: string) => new URL(link, apiUrl).href;
  return { ...playback, url: absolute(playback.url), downloadUrl: absolute(playback.downloadUrl) };
}

export function useRecordingPlayback(id: string) {
  const api = useApi();
  return useQuery({
    queryKey: recordingKeys.playback(id),
    queryFn: () => getRecordingPlayback(api, id),
    staleTime: PLAYBACK_LINKS_STALE_MS,
    retry: false,
  });
}
