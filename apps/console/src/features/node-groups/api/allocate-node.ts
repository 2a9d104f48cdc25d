import type { ApiClient } from '@streamcloud/api-client';
import { type AllocateResult, nodeGroupRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { nodeGroupKeys } from './keys';

/** 'Allocate node': one node now from the provider of the group's rules. */
export function allocateNode(api: ApiClient, groupId: string): Promise<AllocateResult> {
  return api.call(nodeGroupRoutes.allocate, { params: { id: groupId } });
}

export function useAllocateNode(groupId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => allocateNode(api, groupId),
    // A failed call is recorded as a scaling event too.
    onSettled: () => queryClient.invalidateQueries({ queryKey: nodeGroupKeys.detail(groupId) }),
  });
}
