import type { ApiClient } from '@streamcloud/api-client';
import { type StreamInput, streamRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { relayKeys } from './keys';

/** The relayed stream, for the relay info view. */
export function getStream(api: ApiClient, id: string, signal?: AbortSignal): Promise<StreamInput> {
  return api.call(streamRoutes.get, { params: { id }, ...(signal ? { signal } : {}) });
}

export function streamQueryOptions(api: ApiClient, id: string) {
  return queryOptions({ queryKey: relayKeys.streamOf(id), queryFn: ({ signal }) => getStream(api, id, signal) });
}

/** Waits for the id (the info view loads the relay first). */
export function useStream(id: string | undefined) {
  const api = useApi();
  return useQuery({ ...streamQueryOptions(api, id ?? ''), enabled: Boolean(id) });
}
