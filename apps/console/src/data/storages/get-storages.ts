import type { ApiClient } from '@streamcloud/api-client';
import { type Storage, storageRoutes } from '@streamcloud/contract';
import { queryOptions } from '@tanstack/react-query';
import { type ReadOptions, useRead } from '../read';
import { storageKeys } from './keys';

/** A USER's own storages; every account's for an ADMIN. */
export function getStorages(api: ApiClient, signal?: AbortSignal): Promise<Storage[]> {
  return api.call(storageRoutes.list, signal ? { signal } : {});
}

export function storagesQueryOptions(api: ApiClient) {
  return queryOptions({ queryKey: storageKeys.lists(), queryFn: ({ signal }) => getStorages(api, signal) });
}

/** The storages list (the storages screen, the recording form's storage choice). */
export function useStorages<T = Storage[]>(options: ReadOptions<Storage[], T> = {}) {
  return useRead(storagesQueryOptions, options);
}
