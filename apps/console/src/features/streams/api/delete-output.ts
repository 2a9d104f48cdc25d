import type { ApiClient } from '@streamcloud/api-client';
import { streamRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { streamKeys } from '@/data/streams/keys';
import { useApi } from '@/lib/services-context';

export function deleteOutput(api: ApiClient, id: string): Promise<void> {
  return api.call(streamRoutes.deleteOutput, { params: { id } });
}

export function useDeleteOutput(streamId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteOutput(api, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: streamKeys.outputs(streamId) }),
  });
}
