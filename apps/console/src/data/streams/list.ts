import type { ApiClient } from '@streamcloud/api-client';
import { STREAMS_PAGE_SIZE, type StreamInputSummary, streamListRoute } from '@streamcloud/contract';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { nextOffset, type Page, pageOf } from '../paging';
import { streamKeys } from './keys';

/** A page of streams; `total` is X-Total-Count, how many streams there are in all. */
export type StreamsPage = Page<StreamInputSummary>;

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
  return pageOf(data, headers, offset);
}

/** How long a loaded list counts as current for a screen that mounts. */
export const LIST_FRESH_MS = 2_000;

export function streamsQueryOptions(api: ApiClient, account: string | null) {
  return infiniteQueryOptions({
    queryKey: streamKeys.list(account),
    queryFn: ({ pageParam, signal }) => getStreamsPage(api, { offset: pageParam, account }, signal),
    initialPageParam: 0,
    getNextPageParam: (_last: StreamsPage, pages: StreamsPage[]) => nextOffset(pages),
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
