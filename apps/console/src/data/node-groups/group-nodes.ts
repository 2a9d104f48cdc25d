import { nodeGroupRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { callRoute } from '../route-query';
import { nodeGroupKeys } from './keys';

// Writes to a group's nodes read the group again when they fail too: a failure may have changed it.

/** 'Allocate node': one node now from the provider of the group's rules; a failed call is a scaling event too. */
export function useAllocateNode(groupId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callRoute(api, nodeGroupRoutes.allocate, { params: { id: groupId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: nodeGroupKeys.detail(groupId) }),
  });
}

export interface PersistentNodesChange {
  attach: string[];
  detach: string[];
}

/**
 * The persistent-node picker's result: one PUT /node-groups/{id}/node/{nodeId} per newly chosen node (it
 * becomes a Persistent node of the group), one DELETE per removed one (it leaves the group, and stays).
 */
export function useSavePersistentNodes(groupId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ attach, detach }: PersistentNodesChange) => {
      for (const nodeId of attach)
        await callRoute(api, nodeGroupRoutes.attachNode, { params: { id: groupId, nodeId } });
      for (const nodeId of detach)
        await callRoute(api, nodeGroupRoutes.detachNode, { params: { id: groupId, nodeId } });
    },
    // Also after a failure part-way: show what was saved.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: nodeGroupKeys.detail(groupId) }),
        queryClient.invalidateQueries({ queryKey: nodeGroupKeys.persistentNodes() }),
      ]),
  });
}
