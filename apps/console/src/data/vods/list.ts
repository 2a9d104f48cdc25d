import { vodRoutes } from '@streamcloud/contract';
import { useRouteQuery } from '@/data/route-query';
import { DASHBOARD_POLL_MS } from '../streams/dashboard-poll';

/** Query keys of a stream's VODs, narrowest last. */
export const vodKeys = {
  all: ['vods'] as const,
  stream: (streamId: string) => [...vodKeys.all, { streamId }] as const,
};

/** A stream's VODs of its ended sessions, newest first; polled with the dashboard (one comes seconds after a push ends). */
export function useStreamVods(streamId: string) {
  return useRouteQuery(
    vodRoutes.list,
    vodKeys.stream(streamId),
    { query: { streamId } },
    { refetchInterval: DASHBOARD_POLL_MS },
  );
}
