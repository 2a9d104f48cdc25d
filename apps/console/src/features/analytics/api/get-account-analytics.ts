import { analyticsRoutes } from '@streamcloud/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { windowOf } from '../utils/analytics-format';
import { analyticsKeys } from './keys';
import { ANALYTICS_REFRESH_MS } from './refresh';

/** GET /analytics over the last `minutes`: a USER's own account, every account for an ADMIN. */
export function useAccountAnalytics(minutes: number) {
  const api = useApi();
  return useQuery({
    queryKey: analyticsKeys.account(minutes),
    queryFn: ({ signal }) => api.call(analyticsRoutes.account, { query: windowOf(minutes, Date.now()), signal }),
    refetchInterval: ANALYTICS_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}
