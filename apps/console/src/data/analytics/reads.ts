import type { AnyRoute } from '@streamcloud/api-client';
import { analyticsRoutes } from '@streamcloud/contract';
import { keepPreviousData, type QueryKey, useQuery } from '@tanstack/react-query';
import { callRoute, type RouteRequest, useRouteQuery } from '@/data/route-query';
import { useApi } from '@/lib/services-context';
import { ANALYTICS_REFRESH_MS, analyticsKeys } from './keys';

/** The API's window (`from`, `to`) for the last `minutes` before `now`. */
export const windowOf = (minutes: number, now: number) => ({
  from: new Date(now - minutes * 60_000).toISOString(),
  to: new Date(now).toISOString(),
});

/**
 * A read over the last `minutes`, asked again every 15 s: its window is slid to now at each fetch (not when the
 * screen rendered), and the figures shown stay until the next ones came.
 */
function useSlidingWindowRead<R extends AnyRoute>(
  route: R,
  key: QueryKey,
  minutes: number,
  request: (window: ReturnType<typeof windowOf>) => RouteRequest<R>,
) {
  const api = useApi();
  return useQuery({
    queryKey: key,
    queryFn: ({ signal }) => callRoute(api, route, request(windowOf(minutes, Date.now())), signal),
    refetchInterval: ANALYTICS_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}

/** GET /inputs/{id}/analytics over the last `minutes`. */
export const useStreamAnalytics = (streamId: string, minutes: number) =>
  useSlidingWindowRead(analyticsRoutes.stream, analyticsKeys.stream(streamId, minutes), minutes, (query) => ({
    params: { id: streamId },
    query,
  }));

/** GET /inputs/{id}/analytics/sessions: the stream's latest playback sessions in the window. */
export const useStreamSessions = (streamId: string, minutes: number) =>
  useSlidingWindowRead(analyticsRoutes.sessions, analyticsKeys.sessions(streamId, minutes), minutes, (query) => ({
    params: { id: streamId },
    query,
  }));

/** GET /analytics over the last `minutes`: a USER's own account, every account for an ADMIN. */
export const useAccountAnalytics = (minutes: number) =>
  useSlidingWindowRead(analyticsRoutes.account, analyticsKeys.account(minutes), minutes, (query) => ({ query }));

/** GET /analytics/sessions/{id}: one playback session with its timeline; read when it is opened. */
export const useSessionTimeline = (sessionId: string | null) =>
  useRouteQuery(
    analyticsRoutes.session,
    analyticsKeys.session(sessionId ?? ''),
    { params: { id: sessionId ?? '' } },
    { enabled: sessionId !== null },
  );
