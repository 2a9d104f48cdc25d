import type { ApiClient } from '@streamcloud/api-client';
import { type Node, nodeRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { nodeKeys } from './keys';

export function getNodes(api: ApiClient, signal?: AbortSignal): Promise<Node[]> {
  return api.call(nodeRoutes.list, signal ? { signal } : {});
}

export function nodesQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: nodeKeys.lists(),
    queryFn: ({ signal }) => getNodes(api, signal),
  });
}

export function useNodes() {
  return useQuery(nodesQueryOptions(useApi()));
}
