import type { ApiClient } from '@streamcloud/api-client';
import { type NodeInputDraft, type NodeWithToken, nodeRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { nodeKeys } from './keys';

/** Answers the node with its token, which the API shows this once. */
export function createNode(api: ApiClient, body: NodeInputDraft): Promise<NodeWithToken> {
  return api.call(nodeRoutes.create, { body });
}

export function useCreateNode() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NodeInputDraft) => createNode(api, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: nodeKeys.lists() }),
  });
}
