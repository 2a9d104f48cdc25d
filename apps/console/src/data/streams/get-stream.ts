import type { ApiClient } from '@streamcloud/api-client';
import { type StreamInput, streamRoutes } from '@streamcloud/contract';
import { queryOptions } from '@tanstack/react-query';
import { type ReadOptions, useReadById } from '../read';
import { streamKeys } from './keys';

export function getStream(api: ApiClient, id: string, signal?: AbortSignal): Promise<StreamInput> {
  return api.call(streamRoutes.get, { params: { id }, ...(signal ? { signal } : {}) });
}

export function streamQueryOptions(api: ApiClient, id: string) {
  return queryOptions({ queryKey: streamKeys.detail(id), queryFn: ({ signal }) => getStream(api, id, signal) });
}

/**
 * One stream, the one cached copy every screen shares (dashboard, recording and relay views, transcode,
 * billing); waits while the id is unknown. `options` add polling, `select`, `retry`...
 */
export function useStream<T = StreamInput>(id: string | undefined, options: ReadOptions<StreamInput, T> = {}) {
  return useReadById(streamQueryOptions, id, options);
}
