import type { ApiClient } from '@streamcloud/api-client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { attachNode } from './attach-node';
import { detachNode } from './detach-node';
import { nodeGroupKeys } from './keys';

export interface PersistentNodesChange {
  attach: string[];
  detach: string[];
}

/** The picker's result: one attach call per newly chosen node, one detach call per removed one. */
export async function savePersistentNodes(api: ApiClient, groupId: string, change: PersistentNodesChange) {
  for (const nodeId of change.attach) await attachNode(api, groupId, nodeId);
  for (const nodeId of change.detach) await detachNode(api, groupId, nodeId);
}

export function useSavePersistentNodes(groupId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: PersistentNodesChange) => savePersistentNodes(api, groupId, change),
    // Also after a failure part-way: show what was saved.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: nodeGroupKeys.detail(groupId) }),
        queryClient.invalidateQueries({ queryKey: nodeGroupKeys.persistentNodes() }),
      ]),
  });
}
