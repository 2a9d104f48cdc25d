import type { ApiClient } from '@streamcloud/api-client';
import { type TranscodeConfig, transcodeRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { transcodeKeys } from './keys';

export function getOutput(api: ApiClient, id: string, signal?: AbortSignal): Promise<TranscodeConfig> {
  return api.call(transcodeRoutes.get, { params: { id }, ...(signal ? { signal } : {}) });
}

/** Loaded once per visit: the editor holds its changes locally until they are saved. */
export function outputQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: transcodeKeys.output(id),
    queryFn: ({ signal }) => getOutput(api, id, signal),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}

export function useOutput(id: string) {
  return useQuery(outputQueryOptions(useApi(), id));
}
