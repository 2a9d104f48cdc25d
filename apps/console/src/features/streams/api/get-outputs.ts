import type { ApiClient } from '@streamcloud/api-client';
import { OUTPUTS_PAGE_SIZE, type StreamOutput, streamRoutes, TOTAL_COUNT_HEADER } from '@streamcloud/contract';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { streamKeys } from '@/data/streams/keys';
import { useApi } from '@/lib/services-context';
import { DASHBOARD_POLL_MS } from './dashboard-poll';

export interface OutputsPage {
  items: StreamOutput[];
  total: number;
}

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
  const total = Number(headers.get(TOTAL_COUNT_HEADER));
  return {
    items: data,
    total: headers.has(TOTAL_COUNT_HEADER) && Number.isFinite(total) ? total : offset + data.length,
  };
}

export function nextOutputsOffset(pages: OutputsPage[]): number | undefined {
  const last = pages.at(-1);
  if (!last) return 0;
  const loaded = pages.reduce((sum, page) => sum + page.items.length, 0);
  return loaded < last.total && last.items.length > 0 ? loaded : undefined;
}

export function outputsQueryOptions(api: ApiClient, streamId: string) {
  return infiniteQueryOptions({
    queryKey: streamKeys.outputs(streamId),
    queryFn: ({ pageParam, signal }) => getOutputsPage(api, streamId, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (_last: OutputsPage, pages: OutputsPage[]) => nextOutputsOffset(pages),
    refetchInterval: DASHBOARD_POLL_MS,
  });
}

/** A stream's viewers, 4 per page ('Load more' adds a page); polled with the dashboard. */
export function useOutputs(streamId: string, enabled = true) {
  return useInfiniteQuery({ ...outputsQueryOptions(useApi(), streamId), enabled });
}
