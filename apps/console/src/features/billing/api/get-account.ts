import type { ApiClient } from '@streamcloud/api-client';
import { accountRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { billingKeys } from './keys';

export interface BillingAccount {
  id: string;
  username: string;
}

/** The account a report is for (its username and id are printed); the signed-in one when id is null. */
export async function getBillingAccount(
  api: ApiClient,
  id: string | null,
  signal?: AbortSignal,
): Promise<BillingAccount> {
  const options = signal ? { signal } : {};
  const account = id
    ? await api.call(accountRoutes.get, { params: { id }, ...options })
    : await api.call(accountRoutes.whoami, options);
  return { id: account.id, username: account.username };
}

export function billingAccountQueryOptions(api: ApiClient, id: string | null) {
  return queryOptions({
    queryKey: billingKeys.account(id),
    queryFn: ({ signal }) => getBillingAccount(api, id, signal),
    staleTime: 60_000,
  });
}

export function useBillingAccount(id: string | null, enabled = true) {
  return useQuery({ ...billingAccountQueryOptions(useApi(), id), enabled });
}
