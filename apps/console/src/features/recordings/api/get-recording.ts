import type { ApiClient } from '@streamcloud/api-client';
import { type Recording, recordingRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { recordingKeys } from './keys';

export function getRecording(api: ApiClient, id: string, signal?: AbortSignal): Promise<Recording> {
  return api.call(recordingRoutes.get, { params: { id }, ...(signal ? { signal } : {}) });
}

export function recordingQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: recordingKeys.detail(id),
    queryFn: ({ signal }) => getRecording(api, id, signal),
  });
}

export function useRecording(id: string, enabled = true) {
  return useQuery({ ...recordingQueryOptions(useApi(), id), enabled });
}
