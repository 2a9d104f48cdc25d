import type { ApiClient } from '@streamcloud/api-client';
import { storageRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { storageKeys } from '@/data/storages/keys';
import { useApi } from '@/lib/services-context';

/** Refused (409) while a recording uses the storage. */
export function deleteStorage(api: ApiClient, id: string): Promise<void> {
  return api.call(storageRoutes.delete, { params: { id } });
}

export function useDeleteStorage() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteStorage(api, id),
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: storageKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: storageKeys.lists() });
    },
  });
}
