import type { ApiClient } from '@streamcloud/api-client';
import {
  type PlaybackKey,
  type PlaybackKeyCreate,
  type PlaybackKeyCreated,
  type PlaybackTokenInspect,
  type PlaybackTokenInspection,
  type PlaybackTokenRevocation,
  type PlaybackTokenRevoke,
  playbackKeyRoutes,
} from '@streamcloud/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { playbackKeyKeys } from './keys';

export function getPlaybackKeys(api: ApiClient, signal?: AbortSignal): Promise<PlaybackKey[]> {
  return api.call(playbackKeyRoutes.list, signal ? { signal } : {});
}

/** The signed-in account's playback signing keys, active first. */
export function usePlaybackKeys() {
  const api = useApi();
  return useQuery({ queryKey: playbackKeyKeys.list(), queryFn: ({ signal }) => getPlaybackKeys(api, signal) });
}

/** Creates a key; its answer is the only time its private key or secret is seen. */
export function useCreatePlaybackKey() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PlaybackKeyCreate): Promise<PlaybackKeyCreated> => api.call(playbackKeyRoutes.create, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: playbackKeyKeys.list() }),
  });
}

export function useRevokePlaybackKey() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call(playbackKeyRoutes.revoke, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: playbackKeyKeys.list() }),
  });
}

/** Asks whether an output would accept a token (changes nothing). */
export function useInspectPlaybackToken() {
  const api = useApi();
  return useMutation({
    mutationFn: (body: PlaybackTokenInspect): Promise<PlaybackTokenInspection> =>
      api.call(playbackKeyRoutes.inspect, { body }),
  });
}

/** Revokes one token by its jti. */
export function useRevokePlaybackToken() {
  const api = useApi();
  return useMutation({
    mutationFn: (body: PlaybackTokenRevoke): Promise<PlaybackTokenRevocation> =>
      api.call(playbackKeyRoutes.revokeToken, { body }),
  });
}
