import type { ApiClient } from '@streamcloud/api-client';
import { type Clip, type ClipCreateInput, clipRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { clipKeys } from './keys';

export function createClip(api: ApiClient, body: ClipCreateInput): Promise<Clip> {
  return api.call(clipRoutes.create, { body });
}

export function useCreateClip() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ClipCreateInput) => createClip(api, body),
    onSuccess: (clip) => queryClient.invalidateQueries({ queryKey: clipKeys.stream(clip.streamId) }),
  });
}
