import type { ApiClient } from '@streamcloud/api-client';
import { type Storage, storageRoutes } from '@streamcloud/contract';
import { type ReadOptions, useReadById } from '../read';
import { routeQueryOptions } from '../route-query';
import { storageKeys } from './keys';

export function storageQueryOptions(api: ApiClient, id: string) {
  return routeQueryOptions(api, storageRoutes.get, storageKeys.detail(id), { params: { id } });
}

/** One storage (the storage screen, a recording's info view); waits while the id is unknown. */
export function useStorage<T = Storage>(id: string | undefined, options: ReadOptions<Storage, T> = {}) {
  return useReadById(storageQueryOptions, id, options);
}
