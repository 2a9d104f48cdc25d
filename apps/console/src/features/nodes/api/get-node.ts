import type { ApiClient } from '@streamcloud/api-client';
import { type Node, nodeRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { nodeKeys } from './keys';

export function getNode(api: ApiClient, id: string, signal?: AbortSignal): Promise<Node> {
  return api.call(nodeRoutes.get, { params: { id }, ...(signal ? { signal } : {}) });
}

export function nodeQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: nodeKeys.detail(id),
    queryFn: ({ signal }) => getNode(api, id, signal),
  });
}

export function useNode(id: string) {
  return useQuery(nodeQueryOptions(useApi(), id));
}
