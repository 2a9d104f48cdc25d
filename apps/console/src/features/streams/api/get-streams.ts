import type { ApiClient } from '@streamcloud/api-client';
import { STREAMS_PAGE_SIZE, type StreamInputSummary, streamListRoute, TOTAL_COUNT_HEADER } from '@streamcloud/contract';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { streamKeys } from '@/data/streams/keys';
import { useApi } from '@/lib/services-context';

export interface StreamsPage {
  items: StreamInputSummary[];
  /** X-Total-Count: how many streams there are in all. */
  total: number;
}

export interface StreamsPageQuery {
  offset: number;
  limit?: number;
  /** ADMIN: one account's streams. */
  account?: string | null;
}

export async function getStreamsPage(
  api: ApiClient,
  { offset, limit = STREAMS_PAGE_SIZE, account }: StreamsPageQuery,
  signal?: AbortSignal,
): Promise<StreamsPage> {
  const { data, headers } = await api.send(streamListRoute, {
    query: { offset, limit, ...(account ? { account } : {}) },
    ...(signal ? { signal } : {}),
  });
  const total = Number(headers.get(TOTAL_COUNT_HEADER));
  return {
    items: data,
    total: Number.isFinite(total) && headers.has(TOTAL_COUNT_HEADER) ? total : offset + data.length,
  };
}

/** Where the next page starts, or undefined once everything is loaded. */
export function nextStreamsOffset(pages: StreamsPage[]): number | undefined {
  const last = pages.at(-1);
  if (!last) return 0;
  const loaded = pages.reduce((sum, page) => sum + page.items.length, 0);
  return loaded < last.total && last.items.length > 0 ? loaded : undefined;
}

/** How long a loaded list counts as current for a screen that mounts. */
export const LIST_FRESH_MS = 2_000;

export function streamsQueryOptions(api: ApiClient, account: string | null) {
  return infiniteQueryOptions({
    queryKey: streamKeys.list(account),
    queryFn: ({ pageParam, signal }) => getStreamsPage(api, { offset: pageParam, account }, signal),
    initialPageParam: 0,
    getNextPageParam: (_last: StreamsPage, pages: StreamsPage[]) => nextStreamsOffset(pages),
    // With thousands loaded a refetch asks for every page again: the list reloads when it is opened
    // (and with ?refresh), not each time the window gets the focus back.
    refetchOnWindowFocus: false,
    // A list loaded in the last moment is not asked for again when the screen mounts: the first load fetches
    // it alongside the screen's code (app/prefetch-data.ts), often before the screen is there. What the
    // console changes invalidates the list whatever its age.
    staleTime: LIST_FRESH_MS,
  });
}

/** The stream list, 200 at a time ('More' loads the next page). */
export function useStreams(account: string | null) {
  return useInfiniteQuery(streamsQueryOptions(useApi(), account));
}
