import type { ApiClient } from '@streamcloud/api-client';
import { errorStatus } from '@streamcloud/api-client';
import { type Recording, recordingRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { RECORDINGS_POLL_MS, recordingKeys } from './keys';

/** A stream's recordings, autostarting first. */
export function getStreamRecordings(api: ApiClient, streamId: string, signal?: AbortSignal): Promise<Recording[]> {
  return api.call(recordingRoutes.listByStream, { params: { streamId }, ...(signal ? { signal } : {}) });
}

export function streamRecordingsQueryOptions(api: ApiClient, streamId: string) {
  return queryOptions({
    queryKey: recordingKeys.stream(streamId),
    queryFn: ({ signal }) => getStreamRecordings(api, streamId, signal),
    // Polled while shown; a stream that is gone is not asked for again.
    refetchInterval: (query) => (errorStatus(query.state.error) === 404 ? false : RECORDINGS_POLL_MS),
  });
}

export function useStreamRecordings(streamId: string) {
  return useQuery(streamRecordingsQueryOptions(useApi(), streamId));
}
