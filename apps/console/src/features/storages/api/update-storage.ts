import type { ApiClient } from '@streamcloud/api-client';
import { type StorageSaved, type StorageUpdateInput, storageRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { storageKeys } from '@/data/storages/keys';
import { useApi } from '@/lib/services-context';

/** A blank or absent secret keeps the stored one. Answers the storage and the check run after saving. */
export function updateStorage(api: ApiClient, id: string, body: StorageUpdateInput): Promise<StorageSaved> {
  return api.call(storageRoutes.update, { params: { id }, body });
}

export function useUpdateStorage() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: StorageUpdateInput }) => updateStorage(api, id, body),
    onSuccess: ({ check: _check, warning: _warning, ...storage }) => {
      queryClient.setQueryData(storageKeys.detail(storage.id), storage);
      return queryClient.invalidateQueries({ queryKey: storageKeys.lists() });
    },
  });
}
