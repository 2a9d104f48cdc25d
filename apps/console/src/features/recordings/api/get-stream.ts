import type { ApiClient } from '@streamcloud/api-client';
import { type StreamInput, streamRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { recordingKeys } from './keys';

/** The recorded stream: its name for the file name example, its details for the info view. */
export function getStream(api: ApiClient, id: string, signal?: AbortSignal): Promise<StreamInput> {
  return api.call(streamRoutes.get, { params: { id }, ...(signal ? { signal } : {}) });
}

export function streamQueryOptions(api: ApiClient, id: string) {
  return queryOptions({ queryKey: recordingKeys.streamOf(id), queryFn: ({ signal }) => getStream(api, id, signal) });
}

/** Waits for the id (the info view loads the recording first). */
export function useStream(id: string | undefined) {
  const api = useApi();
  return useQuery({ ...streamQueryOptions(api, id ?? ''), enabled: Boolean(id) });
}
