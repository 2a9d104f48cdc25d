import type { ApiClient } from '@streamcloud/api-client';
import { nodeGroupRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { nodeGroupKeys } from './keys';

export function deleteNodeGroup(api: ApiClient, id: string): Promise<void> {
  return api.call(nodeGroupRoutes.delete, { params: { id } });
}

export function useDeleteNodeGroup() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteNodeGroup(api, id),
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: nodeGroupKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: nodeGroupKeys.lists() });
    },
  });
}
