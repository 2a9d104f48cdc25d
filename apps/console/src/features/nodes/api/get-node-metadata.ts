import type { ApiClient } from '@streamcloud/api-client';
import { nodeRoutes } from '@streamcloud/contract';
import { useMutation } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';

export type NodeMetadata = Record<string, unknown>;

/** The node's own metadata, fetched live from the node through the control plane. */
export function getNodeMetadata(api: ApiClient, id: string): Promise<NodeMetadata> {
  return api.call(nodeRoutes.metadata, { params: { id } });
}

/** A request the admin starts with a button, so a mutation rather than a cached query. */
export function useNodeMetadataRequest() {
  const api = useApi();
  return useMutation({ mutationFn: (id: string) => getNodeMetadata(api, id) });
}
