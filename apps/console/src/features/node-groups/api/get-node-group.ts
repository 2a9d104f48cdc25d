import type { ApiClient } from '@streamcloud/api-client';
import { type NodeGroup, nodeGroupRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { nodeGroupKeys } from './keys';

export function getNodeGroup(api: ApiClient, id: string, signal?: AbortSignal): Promise<NodeGroup> {
  return api.call(nodeGroupRoutes.get, { params: { id }, ...(signal ? { signal } : {}) });
}

export function nodeGroupQueryOptions(api: ApiClient, id: string) {
  return queryOptions({ queryKey: nodeGroupKeys.detail(id), queryFn: ({ signal }) => getNodeGroup(api, id, signal) });
}

export function useNodeGroup(id: string) {
  return useQuery(nodeGroupQueryOptions(useApi(), id));
}
