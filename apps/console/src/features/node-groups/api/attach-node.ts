import type { ApiClient } from '@streamcloud/api-client';
import { nodeGroupRoutes } from '@streamcloud/contract';

/** PUT /node-groups/{id}/node/{nodeId} with no body: the node becomes a Persistent node of the group. */
export function attachNode(api: ApiClient, groupId: string, nodeId: string): Promise<void> {
  return api.call(nodeGroupRoutes.attachNode, { params: { id: groupId, nodeId } });
}
