import type { ApiClient } from '@streamcloud/api-client';
import { type Storage, storageRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { storageKeys } from './keys';

export function getStorage(api: ApiClient, id: string, signal?: AbortSignal): Promise<Storage> {
  return api.call(storageRoutes.get, { params: { id }, ...(signal ? { signal } : {}) });
}

export function storageQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: storageKeys.detail(id),
    queryFn: ({ signal }) => getStorage(api, id, signal),
  });
}

export function useStorage(id: string) {
  return useQuery(storageQueryOptions(useApi(), id));
}
