import type { ApiClient } from '@streamcloud/api-client';
import { streamRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { streamKeys } from '@/data/streams/keys';
import { useApi } from '@/lib/services-context';

export function deleteStream(api: ApiClient, id: string): Promise<void> {
  return api.call(streamRoutes.delete, { params: { id } });
}

export function useDeleteStream() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteStream(api, id),
    onSuccess: (_nothing, id) => {
      queryClient.removeQueries({ queryKey: streamKeys.detail(id) });
      queryClient.removeQueries({ queryKey: streamKeys.outputs(id) });
      queryClient.removeQueries({ queryKey: streamKeys.ingress(id) });
      return queryClient.invalidateQueries({ queryKey: streamKeys.lists() });
    },
  });
}
