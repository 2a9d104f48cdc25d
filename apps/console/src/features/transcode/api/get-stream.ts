import type { ApiClient } from '@streamcloud/api-client';
import { type StreamInput, streamRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { transcodeKeys } from './keys';

/** The stream the editor works on: its caption, and whether its transcoding may change now. */
export function getStream(api: ApiClient, id: string, signal?: AbortSignal): Promise<StreamInput> {
  return api.call(streamRoutes.get, { params: { id }, ...(signal ? { signal } : {}) });
}

export function streamQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: transcodeKeys.stream(id),
    queryFn: ({ signal }) => getStream(api, id, signal),
  });
}

export function useTranscodedStream(id: string) {
  return useQuery(streamQueryOptions(useApi(), id));
}
