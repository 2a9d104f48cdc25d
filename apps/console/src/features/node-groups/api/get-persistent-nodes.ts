import type { ApiClient } from '@streamcloud/api-client';
import { nodeGroupRoutes, type PersistentNodeCandidate } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { nodeGroupKeys } from './keys';

/** Every node with the groups it is in, for the persistent-node picker (ADMIN). */
export function getPersistentNodes(api: ApiClient, signal?: AbortSignal): Promise<PersistentNodeCandidate[]> {
  return api.call(nodeGroupRoutes.persistentNodes, signal ? { signal } : {});
}

export function persistentNodesQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: nodeGroupKeys.persistentNodes(),
    queryFn: ({ signal }) => getPersistentNodes(api, signal),
  });
}

export function usePersistentNodes(enabled = true) {
  return useQuery({ ...persistentNodesQueryOptions(useApi()), enabled });
}
