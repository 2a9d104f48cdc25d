import type { ApiClient } from '@streamcloud/api-client';
import { type Node, type NodeInputDraft, nodeRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { nodeKeys } from './keys';

export function updateNode(api: ApiClient, id: string, body: NodeInputDraft): Promise<Node> {
  return api.call(nodeRoutes.update, { params: { id }, body });
}

export function useUpdateNode() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: NodeInputDraft }) => updateNode(api, id, body),
    onSuccess: (node) => {
      queryClient.setQueryData(nodeKeys.detail(node.id), node);
      return queryClient.invalidateQueries({ queryKey: nodeKeys.lists() });
    },
  });
}
