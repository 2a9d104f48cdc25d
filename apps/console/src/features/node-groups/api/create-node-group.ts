import type { ApiClient } from '@streamcloud/api-client';
import { type NodeGroup, type NodeGroupCreateInput, nodeGroupRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { nodeGroupKeys } from './keys';

export function createNodeGroup(api: ApiClient, body: NodeGroupCreateInput): Promise<NodeGroup> {
  return api.call(nodeGroupRoutes.create, { body });
}

export function useCreateNodeGroup() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NodeGroupCreateInput) => createNodeGroup(api, body),
    onSuccess: (group) => {
      queryClient.setQueryData(nodeGroupKeys.detail(group.id), group);
      return queryClient.invalidateQueries({ queryKey: nodeGroupKeys.lists() });
    },
  });
}
