import type { ApiClient } from '@streamcloud/api-client';
import { type StorageCreateInput, type StorageSaved, storageRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { storageKeys } from '@/data/storages/keys';
import { useApi } from '@/lib/services-context';

/** Answers the storage and the connection check the server ran after saving it. */
export function createStorage(api: ApiClient, body: StorageCreateInput): Promise<StorageSaved> {
  return api.call(storageRoutes.create, { body });
}

export function useCreateStorage() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StorageCreateInput) => createStorage(api, body),
    onSuccess: ({ check: _check, warning: _warning, ...storage }) => {
      queryClient.setQueryData(storageKeys.detail(storage.id), storage);
      return queryClient.invalidateQueries({ queryKey: storageKeys.lists() });
    },
  });
}
