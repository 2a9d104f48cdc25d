import type { ApiClient } from '@streamcloud/api-client';
import { type Storage, storageRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { storageKeys } from './keys';

/** A USER's own storages; every account's for an ADMIN. */
export function getStorages(api: ApiClient, signal?: AbortSignal): Promise<Storage[]> {
  return api.call(storageRoutes.list, signal ? { signal } : {});
}

export function storagesQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: storageKeys.lists(),
    queryFn: ({ signal }) => getStorages(api, signal),
  });
}

export function useStorages() {
  return useQuery(storagesQueryOptions(useApi()));
}
