import type { ApiClient } from '@streamcloud/api-client';
import { nodeRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { nodeKeys } from './keys';

export function deleteNode(api: ApiClient, id: string): Promise<void> {
  return api.call(nodeRoutes.delete, { params: { id } });
}

export function useDeleteNode() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteNode(api, id),
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: nodeKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: nodeKeys.lists() });
    },
  });
}
