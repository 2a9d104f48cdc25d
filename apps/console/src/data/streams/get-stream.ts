import type { ApiClient } from '@streamcloud/api-client';
import { type StreamInput, streamRoutes } from '@streamcloud/contract';
import { type ReadOptions, useReadById } from '../read';
import { routeQueryOptions } from '../route-query';
import { streamKeys } from './keys';

export function streamQueryOptions(api: ApiClient, id: string) {
  return routeQueryOptions(api, streamRoutes.get, streamKeys.detail(id), { params: { id } });
}

/**
 * One stream, the one cached copy every screen shares (dashboard, recording and relay views, transcode,
 * billing); waits while the id is unknown. `options` add polling, `select`, `retry`...
 */
export function useStream<T = StreamInput>(id: string | undefined, options: ReadOptions<StreamInput, T> = {}) {
  return useReadById(streamQueryOptions, id, options);
}
