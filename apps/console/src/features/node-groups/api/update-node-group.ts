import type { ApiClient } from '@streamcloud/api-client';
import { type NodeGroup, type NodeGroupUpdateInput, nodeGroupRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { nodeGroupKeys } from './keys';

/** Changes only the fields sent (the scaling toggle sends `{scalable}`). */
export function updateNodeGroup(api: ApiClient, id: string, body: NodeGroupUpdateInput): Promise<NodeGroup> {
  return api.call(nodeGroupRoutes.update, { params: { id }, body });
}

export function useUpdateNodeGroup() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: NodeGroupUpdateInput }) => updateNodeGroup(api, id, body),
    onSuccess: (group) => {
      queryClient.setQueryData(nodeGroupKeys.detail(group.id), group);
      return queryClient.invalidateQueries({ queryKey: nodeGroupKeys.lists() });
    },
  });
}
