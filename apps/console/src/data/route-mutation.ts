import type { AnyRoute } from '@streamcloud/api-client';
import type { ResponseOf } from '@streamcloud/contract';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { callRoute, type RouteRequest } from './route-query';

/** What a write is called with, what it sends, and which of the resource's cached reads it changes. */
export interface RouteMutation<R extends AnyRoute, TVariables> {
  /** The request one call sends: `(id: string) => ({ params: { id } })`. */
  toRequest: (variables: TVariables) => RouteRequest<R>;
  /** The key the answer is put under at once (a saved resource shows without being read again). */
  sets?: (data: ResponseOf<R>, variables: TVariables) => QueryKey;
  /** What of the answer `sets` puts there, when the answer carries more than the resource (a storage's check). */
  cached?: (data: ResponseOf<R>) => unknown;
  /** The reads of what no longer exists (a deleted resource's detail): dropped, not read again. */
  removes?: (data: ResponseOf<R>, variables: TVariables) => QueryKey[];
  /** The keys the write makes stale; the mutation settles once they are read again. */
  invalidates?: (data: ResponseOf<R>, variables: TVariables) => QueryKey[];
}

/**
 * The hook of a route's write: `useRouteMutation(nodeRoutes.delete, { toRequest: (id: string) => ({ params:
 * { id } }), removes: (_, id) => [nodeKeys.detail(id)], invalidates: () => [nodeKeys.lists()] })`.
 */
export function useRouteMutation<R extends AnyRoute, TVariables = void>(
  route: R,
  { toRequest, sets, cached = (data) => data, removes, invalidates }: RouteMutation<R, TVariables>,
) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: TVariables) => callRoute(api, route, toRequest(variables)),
    onSuccess: (data, variables) => {
      if (sets) queryClient.setQueryData(sets(data, variables), cached(data));
      for (const queryKey of removes?.(data, variables) ?? []) queryClient.removeQueries({ queryKey });
      const stale = invalidates?.(data, variables) ?? [];
      return Promise.all(stale.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });
}
