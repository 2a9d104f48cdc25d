import type { ApiClient } from '@streamcloud/api-client';
import { type WhoAmI, whoAmIRoute } from '@streamcloud/contract';
import { IDENTITY_META } from '@/lib/query-client';
import { type ReadOptions, useRead } from '../read';
import { routeQueryOptions } from '../route-query';
import { accountKeys } from './keys';

export function whoAmIQueryOptions(api: ApiClient) {
  return { ...routeQueryOptions(api, whoAmIRoute, accountKeys.whoami(), {}), staleTime: 60_000, meta: IDENTITY_META };
}

/** The signed-in account (the impersonated one while impersonating). */
export function useWhoAmI<T = WhoAmI>(options: ReadOptions<WhoAmI, T> = {}) {
  return useRead(whoAmIQueryOptions, options);
}

/** Whether the signed-in account is an ADMIN; undefined while loading, false when it cannot be told. */
export function useIsAdmin(): boolean | undefined {
  const me = useWhoAmI();
  return me.data ? me.data.role === 'ADMIN' : me.isError ? false : undefined;
}
