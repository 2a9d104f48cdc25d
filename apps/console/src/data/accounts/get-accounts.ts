import type { ApiClient } from '@streamcloud/api-client';
import { type Account, accountRoutes } from '@streamcloud/contract';
import { type ReadOptions, useRead } from '../read';
import { routeQueryOptions } from '../route-query';
import { accountKeys } from './keys';

export function accountsQueryOptions(api: ApiClient) {
  return routeQueryOptions(api, accountRoutes.list, accountKeys.lists(), {});
}

/** Every account (ADMIN): the accounts screen, the node group owner choice. */
export function useAccounts<T = Account[]>(options: ReadOptions<Account[], T> = {}) {
  return useRead(accountsQueryOptions, options);
}
