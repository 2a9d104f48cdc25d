import type { ApiClient } from '@streamcloud/api-client';
import { nodeGroupRoutes } from '@streamcloud/contract';

/** DELETE /node-groups/{id}/node/{nodeId}: the node leaves the group (the node itself stays). */
export function detachNode(api: ApiClient, groupId: string, nodeId: string): Promise<void> {
  return api.call(nodeGroupRoutes.detachNode, { params: { id: groupId, nodeId } });
}
