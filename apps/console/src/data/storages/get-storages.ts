import type { ApiClient } from '@streamcloud/api-client';
import { type Storage, storageRoutes } from '@streamcloud/contract';
import { type ReadOptions, useRead } from '../read';
import { routeQueryOptions } from '../route-query';
import { storageKeys } from './keys';

export function getStorages(api: ApiClient, signal?: AbortSignal): Promise<Storage[]> {
  return api.call(storageRoutes.list, signal ? { signal } : {});
}

export function storagesQueryOptions(api: ApiClient) {
  return routeQueryOptions(api, storageRoutes.list, storageKeys.lists(), {});
}

/**
 * The storages list (the storages screen, the recording form's storage choice): a USER's own storages, every
 * account's for an ADMIN.
 */
export function useStorages<T = Storage[]>(options: ReadOptions<Storage[], T> = {}) {
  return useRead(storagesQueryOptions, options);
}
