import type { ApiClient } from '@streamcloud/api-client';
import { type NodeRefreshMode, nodeRoutes } from '@streamcloud/contract';
import { useMutation } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';

/** Asks the node (through the control plane) to refresh from one mode. */
export function refreshNode(api: ApiClient, id: string, mode: NodeRefreshMode) {
  return api.call(nodeRoutes.refresh, { params: { id }, body: { mode } });
}

export function useRefreshNode() {
  const api = useApi();
  return useMutation({
    mutationFn: ({ id, mode }: { id: string; mode: NodeRefreshMode }) => refreshNode(api, id, mode),
  });
}
