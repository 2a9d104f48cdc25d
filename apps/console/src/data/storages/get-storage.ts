import type { ApiClient } from '@streamcloud/api-client';
import { type Storage, storageRoutes } from '@streamcloud/contract';
import { queryOptions } from '@tanstack/react-query';
import { type ReadOptions, useReadById } from '../read';
import { storageKeys } from './keys';

export function getStorage(api: ApiClient, id: string, signal?: AbortSignal): Promise<Storage> {
  return api.call(storageRoutes.get, { params: { id }, ...(signal ? { signal } : {}) });
}

export function storageQueryOptions(api: ApiClient, id: string) {
  return queryOptions({ queryKey: storageKeys.detail(id), queryFn: ({ signal }) => getStorage(api, id, signal) });
}

/** One storage (the storage screen, a recording's info view); waits while the id is unknown. */
export function useStorage<T = Storage>(id: string | undefined, options: ReadOptions<Storage, T> = {}) {
  return useReadById(storageQueryOptions, id, options);
}
