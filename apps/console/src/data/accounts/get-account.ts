import type { ApiClient } from '@streamcloud/api-client';
import { type Account, accountRoutes } from '@streamcloud/contract';
import { type ReadOptions, useReadById } from '../read';
import { routeQueryOptions } from '../route-query';
import { accountKeys } from './keys';

export function accountQueryOptions(api: ApiClient, id: string) {
  return {
    ...routeQueryOptions(api, accountRoutes.get, accountKeys.detail(id), { params: { id } }),
    staleTime: 60_000,
  };
}

/** One account (ADMIN); waits while the id is unknown. */
export function useAccount<T = Account>(id: string | undefined, options: ReadOptions<Account, T> = {}) {
  return useReadById(accountQueryOptions, id, options);
}
