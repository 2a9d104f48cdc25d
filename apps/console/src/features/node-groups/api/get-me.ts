import type { ApiClient } from '@streamcloud/api-client';
import { accountRoutes, type WhoAmI } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { nodeGroupKeys } from './keys';

export function getMe(api: ApiClient, signal?: AbortSignal): Promise<WhoAmI> {
  return api.call(accountRoutes.whoami, signal ? { signal } : {});
}

export function meQueryOptions(api: ApiClient) {
  return queryOptions({ queryKey: nodeGroupKeys.me(), queryFn: ({ signal }) => getMe(api, signal), staleTime: 60_000 });
}

/** Whether the signed-in account (the impersonated one while impersonating) is an ADMIN; undefined while loading. */
export function useIsAdmin(): boolean | undefined {
  const me = useQuery(meQueryOptions(useApi()));
  return me.data ? me.data.role === 'ADMIN' : me.isError ? false : undefined;
}
