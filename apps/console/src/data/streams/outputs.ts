import type { ApiClient } from '@streamcloud/api-client';
import { OUTPUTS_PAGE_SIZE, type StreamOutput, streamRoutes } from '@streamcloud/contract';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { nextOffset, type Page, pageOf } from '../paging';
import { DASHBOARD_POLL_MS } from './dashboard-poll';
import { streamKeys } from './keys';

export type OutputsPage = Page<StreamOutput>;

export async function getOutputsPage(
  api: ApiClient,
  streamId: string,
  offset: number,
  signal?: AbortSignal,
): Promise<OutputsPage> {
  const { data, headers } = await api.send(streamRoutes.listOutputs, {
    query: { streamId, offset, limit: OUTPUTS_PAGE_SIZE },
    ...(signal ? { signal } : {}),
  });
  return pageOf(data, headers, offset);
}

export function outputsQueryOptions(api: ApiClient, streamId: string) {
  return infiniteQueryOptions({
    queryKey: streamKeys.outputs(streamId),
    queryFn: ({ pageParam, signal }) => getOutputsPage(api, streamId, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (_last: OutputsPage, pages: OutputsPage[]) => nextOffset(pages),
    refetchInterval: DASHBOARD_POLL_MS,
  });
}

/** A stream's viewers, 4 per page ('Load more' adds a page); polled with the dashboard. */
export function useOutputs(streamId: string, enabled = true) {
  return useInfiniteQuery({ ...outputsQueryOptions(useApi(), streamId), enabled });
}
