import type { AnyRoute, ApiClient, CallArgs, CallOptions } from '@streamcloud/api-client';
import type { ResponseOf } from '@streamcloud/contract';
import { type QueryKey, queryOptions } from '@tanstack/react-query';
import { type ReadOptions, useRead } from './read';

/** What one call of a route sends: its path parameters, query and body, typed by the contract's route table. */
export type RouteRequest<R extends AnyRoute> = Omit<CallOptions<R>, 'token' | 'signal'>;

/** Calls a route with a request typed where it was written, and the query's signal when there is one. */
export function callRoute<R extends AnyRoute>(
  api: ApiClient,
  route: R,
  request: RouteRequest<R>,
  signal?: AbortSignal,
): Promise<ResponseOf<R>> {
  // `CallArgs<R>` is a conditional type TypeScript cannot resolve for a route still generic here; the request
  // was checked against the concrete route by the caller's `RouteRequest<R>`, so only the tuple is asserted.
  const args = [{ ...request, ...(signal ? { signal } : {}) }] as unknown as CallArgs<R>;
  return api.call(route, ...args);
}

/**
 * A route's read as query options, for `useQuery`, prefetching and `fetchQuery` alike: cached under the
 * resource's key (`streamKeys.detail(id)`), fetched with the request.
 */
export function routeQueryOptions<R extends AnyRoute, TKey extends QueryKey>(
  api: ApiClient,
  route: R,
  key: TKey,
  request: RouteRequest<R>,
) {
  return queryOptions({
    queryKey: key,
    queryFn: ({ signal }): Promise<ResponseOf<R>> => callRoute(api, route, request, signal),
  });
}

/**
 * The hook of a route's read: `useRouteQuery(nodeRoutes.get, nodeKeys.detail(id), { params: { id } })`.
 * `options` are the screen's (`refetchInterval`, `enabled`, `select`, `retry`...); the key and the fetch stay
 * the route's, so every screen reading it shares one cached copy.
 */
export function useRouteQuery<R extends AnyRoute, TKey extends QueryKey, TData = ResponseOf<R>>(
  route: R,
  key: TKey,
  request: RouteRequest<R>,
  options: ReadOptions<ResponseOf<R>, TData> = {},
) {
  return useRead((api) => routeQueryOptions(api, route, key, request), options);
}
