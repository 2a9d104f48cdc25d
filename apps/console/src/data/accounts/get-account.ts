import type { ApiClient } from '@streamcloud/api-client';
import { type Account, accountRoutes } from '@streamcloud/contract';
import { queryOptions } from '@tanstack/react-query';
import { type ReadOptions, useReadById } from '../read';
import { accountKeys } from './keys';

export function getAccount(api: ApiClient, id: string, signal?: AbortSignal): Promise<Account> {
  return api.call(accountRoutes.get, { params: { id }, ...(signal ? { signal } : {}) });
}

export function accountQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: accountKeys.detail(id),
    queryFn: ({ signal }) => getAccount(api, id, signal),
    staleTime: 60_000,
  });
}

/** One account (ADMIN); waits while the id is unknown. */
export function useAccount<T = Account>(id: string | undefined, options: ReadOptions<Account, T> = {}) {
  return useReadById(accountQueryOptions, id, options);
}
