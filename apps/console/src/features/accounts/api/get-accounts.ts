import type { ApiClient } from '@streamcloud/api-client';
import { type Account, accountRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { accountKeys } from './keys';

export function getAccounts(api: ApiClient, signal?: AbortSignal): Promise<Account[]> {
  return api.call(accountRoutes.list, signal ? { signal } : {});
}

export function accountsQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: accountKeys.lists(),
    queryFn: ({ signal }) => getAccounts(api, signal),
  });
}

export function useAccounts() {
  return useQuery(accountsQueryOptions(useApi()));
}
