import type { ApiClient } from '@streamcloud/api-client';
import { type ClipPlayback, clipRoutes } from '@streamcloud/contract';
import { useMutation } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';

/** POST /clips/{id}/playback, with the links made absolute on the API's origin (the console may be elsewhere). */
export async function getClipPlayback(api: ApiClient, id: string): Promise<ClipPlayback> {
  const playback = await api.call(clipRoutes.playback, { params: { id } });
  const apiUrl = new URL(api.url(clipRoutes.playback, { params: { id } }), window.location.href);
  const absolute = (link: string) => new URL(link, apiUrl).href;
  return {
    ...playback,
    url: absolute(playback.url),
    downloadUrl: absolute(playback.downloadUrl),
    storyboardUrl: absolute(playback.storyboardUrl),
  };
}

/** Asked for when Play or Download is pressed (links expire: a fresh one each time). */
export function useClipPlayback() {
  const api = useApi();
  return useMutation({ mutationFn: (id: string) => getClipPlayback(api, id) });
}
