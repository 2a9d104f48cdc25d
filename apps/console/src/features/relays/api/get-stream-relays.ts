import type { ApiClient } from '@streamcloud/api-client';
import { errorStatus } from '@streamcloud/api-client';
import { type Relay, relayRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { RELAYS_POLL_MS, relayKeys } from './keys';

/** A stream's relays, autostarting first. */
export function getStreamRelays(api: ApiClient, streamId: string, signal?: AbortSignal): Promise<Relay[]> {
  return api.call(relayRoutes.listByStream, { params: { streamId }, ...(signal ? { signal } : {}) });
}

export function streamRelaysQueryOptions(api: ApiClient, streamId: string) {
  return queryOptions({
    queryKey: relayKeys.stream(streamId),
    queryFn: ({ signal }) => getStreamRelays(api, streamId, signal),
    // Polled while shown; a stream that is gone is not asked for again.
    refetchInterval: (query) => (errorStatus(query.state.error) === 404 ? false : RELAYS_POLL_MS),
  });
}

export function useStreamRelays(streamId: string) {
  return useQuery(streamRelaysQueryOptions(useApi(), streamId));
}
