import { nodeGroupRoutes } from '@streamcloud/contract';
import type { ApiClient } from '@/lib/api-client';

/** DELETE /node-groups/{id}/node/{nodeId}: the node leaves the group (the node itself stays). */
export function detachNode(api: ApiClient, groupId: string, nodeId: string): Promise<void> {
  return api.call(nodeGroupRoutes.detachNode, { params: { id: groupId, nodeId } });
}
