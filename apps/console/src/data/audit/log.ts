import type { ApiClient } from '@streamcloud/api-client';
import { type AuditFilter, type AuditPage, auditRoutes } from '@streamcloud/contract';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { auditKeys } from './keys';

/** Entries per page ('Load more' adds a page). */
export const AUDIT_PAGE_SIZE = 50;

export function getAuditPage(
  api: ApiClient,
  filter: AuditFilter,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<AuditPage> {
  return api.call(auditRoutes.list, {
    query: { ...filter, limit: AUDIT_PAGE_SIZE, ...(cursor ? { cursor } : {}) },
    ...(signal ? { signal } : {}),
  });
}

export function auditQueryOptions(api: ApiClient, filter: AuditFilter) {
  return infiniteQueryOptions({
    queryKey: auditKeys.list(filter),
    queryFn: ({ pageParam, signal }) => getAuditPage(api, filter, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: AuditPage) => last.nextCursor ?? undefined,
  });
}

/** The audit entries a filter selects, newest first, a page at a time (keyset: the API's cursor). */
export function useAuditLog(filter: AuditFilter) {
  return useInfiniteQuery(auditQueryOptions(useApi(), filter));
}
