import type { ApiClient } from '@streamcloud/api-client';
import { type NodeGroup, nodeGroupRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { nodeGroupKeys } from './keys';

export function getNodeGroups(api: ApiClient, signal?: AbortSignal): Promise<NodeGroup[]> {
  return api.call(nodeGroupRoutes.list, signal ? { signal } : {});
}

export function nodeGroupsQueryOptions(api: ApiClient) {
  return queryOptions({ queryKey: nodeGroupKeys.lists(), queryFn: ({ signal }) => getNodeGroups(api, signal) });
}

export function useNodeGroups() {
  return useQuery(nodeGroupsQueryOptions(useApi()));
}
