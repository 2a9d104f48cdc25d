import type { ApiClient } from '@streamcloud/api-client';
import { type Storage, storageRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { recordingKeys } from './keys';

export function getStorage(api: ApiClient, id: string, signal?: AbortSignal): Promise<Storage> {
  return api.call(storageRoutes.get, { params: { id }, ...(signal ? { signal } : {}) });
}

export function storageQueryOptions(api: ApiClient, id: string) {
  return queryOptions({ queryKey: recordingKeys.storage(id), queryFn: ({ signal }) => getStorage(api, id, signal) });
}

/** Waits for the id (the info view loads the recording first). */
export function useStorage(id: string | undefined) {
  const api = useApi();
  return useQuery({ ...storageQueryOptions(api, id ?? ''), enabled: Boolean(id) });
}
