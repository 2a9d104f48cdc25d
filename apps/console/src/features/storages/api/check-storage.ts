import type { ApiClient } from '@streamcloud/api-client';
import { type StorageCheckResult, storageRoutes } from '@streamcloud/contract';
import { useMutation } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';

/** Runs the connection check with the stored credentials; an unreachable bucket is a result, not an error. */
export function checkStorage(api: ApiClient, id: string): Promise<StorageCheckResult> {
  return api.call(storageRoutes.check, { params: { id } });
}

export function useCheckStorage() {
  const api = useApi();
  return useMutation({ mutationFn: (id: string) => checkStorage(api, id) });
}
