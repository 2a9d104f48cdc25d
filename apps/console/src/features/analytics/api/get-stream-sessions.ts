import { analyticsRoutes } from '@streamcloud/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { windowOf } from '../utils/analytics-format';
import { analyticsKeys } from './keys';
import { ANALYTICS_REFRESH_MS } from './refresh';

/** GET /inputs/{id}/analytics/sessions: the stream's latest playback sessions in the window. */
export function useStreamSessions(streamId: string, minutes: number) {
  const api = useApi();
  return useQuery({
    queryKey: analyticsKeys.sessions(streamId, minutes),
    queryFn: ({ signal }) =>
      api.call(analyticsRoutes.sessions, { params: { id: streamId }, query: windowOf(minutes, Date.now()), signal }),
    refetchInterval: ANALYTICS_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}
