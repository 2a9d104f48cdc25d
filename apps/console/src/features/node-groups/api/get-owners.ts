import type { ApiClient } from '@streamcloud/api-client';
import { type Account, accountRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { nodeGroupKeys } from './keys';

/** Every account, for the owner choice of the node group modal (ADMIN). */
export function getOwners(api: ApiClient, signal?: AbortSignal): Promise<Account[]> {
  return api.call(accountRoutes.list, signal ? { signal } : {});
}

export function ownersQueryOptions(api: ApiClient) {
  return queryOptions({ queryKey: nodeGroupKeys.owners(), queryFn: ({ signal }) => getOwners(api, signal) });
}

export function useOwners(enabled = true) {
  return useQuery({ ...ownersQueryOptions(useApi()), enabled });
}
