import type { ApiClient } from '@streamcloud/api-client';
import { type Account, accountRoutes } from '@streamcloud/contract';
import { queryOptions } from '@tanstack/react-query';
import { type ReadOptions, useRead } from '../read';
import { accountKeys } from './keys';

export function getAccounts(api: ApiClient, signal?: AbortSignal): Promise<Account[]> {
  return api.call(accountRoutes.list, signal ? { signal } : {});
}

export function accountsQueryOptions(api: ApiClient) {
  return queryOptions({ queryKey: accountKeys.lists(), queryFn: ({ signal }) => getAccounts(api, signal) });
}

/** Every account (ADMIN): the accounts screen, the node group owner choice. */
export function useAccounts<T = Account[]>(options: ReadOptions<Account[], T> = {}) {
  return useRead(accountsQueryOptions, options);
}
