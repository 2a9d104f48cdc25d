import type { ApiClient } from '@streamcloud/api-client';
import { type Clip, clipRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { clipKeys } from './keys';

/** Only Ready or in Error; the clip's file goes too. */
export function deleteClip(api: ApiClient, id: string): Promise<void> {
  return api.call(clipRoutes.delete, { params: { id } });
}

export function useDeleteClip() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (clip: Clip) => deleteClip(api, clip.id),
    onSuccess: (_, clip) => queryClient.invalidateQueries({ queryKey: clipKeys.stream(clip.streamId) }),
  });
}
