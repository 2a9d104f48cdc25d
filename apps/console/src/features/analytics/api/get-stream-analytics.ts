import { analyticsRoutes } from '@streamcloud/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { windowOf } from '../utils/analytics-format';
import { analyticsKeys } from './keys';
import { ANALYTICS_REFRESH_MS } from './refresh';

/** GET /inputs/{id}/analytics over the last `minutes`, asked again every 15 s. */
export function useStreamAnalytics(streamId: string, minutes: number) {
  const api = useApi();
  return useQuery({
    queryKey: analyticsKeys.stream(streamId, minutes),
    queryFn: ({ signal }) =>
      api.call(analyticsRoutes.stream, { params: { id: streamId }, query: windowOf(minutes, Date.now()), signal }),
    refetchInterval: ANALYTICS_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}
