import { analyticsRoutes } from '@streamcloud/contract';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { analyticsKeys } from './keys';

/** GET /analytics/sessions/{id}: one playback session with its timeline; read when it is opened. */
export function useSessionTimeline(sessionId: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: analyticsKeys.session(sessionId ?? ''),
    queryFn: ({ signal }) => api.call(analyticsRoutes.session, { params: { id: sessionId ?? '' }, signal }),
    enabled: sessionId !== null,
  });
}
