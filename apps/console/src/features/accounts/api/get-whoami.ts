import type { ApiClient } from '@streamcloud/api-client';
import { accountRoutes, type WhoAmI } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { accountKeys } from './keys';

export function getWhoAmI(api: ApiClient, signal?: AbortSignal): Promise<WhoAmI> {
  return api.call(accountRoutes.whoami, signal ? { signal } : {});
}

export function whoAmIQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: accountKeys.whoami(),
    queryFn: ({ signal }) => getWhoAmI(api, signal),
    staleTime: 60_000,
  });
}

/** The signed-in account (the impersonated one while impersonating). */
export function useWhoAmI() {
  return useQuery(whoAmIQueryOptions(useApi()));
}
