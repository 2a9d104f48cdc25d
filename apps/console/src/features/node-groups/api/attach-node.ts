import { nodeGroupRoutes } from '@streamcloud/contract';
import type { ApiClient } from '@/lib/api-client';

/** PUT /node-groups/{id}/node/{nodeId} with no body: the node becomes a Persistent node of the group. */
export function attachNode(api: ApiClient, groupId: string, nodeId: string): Promise<void> {
  return api.call(nodeGroupRoutes.attachNode, { params: { id: groupId, nodeId } });
}
