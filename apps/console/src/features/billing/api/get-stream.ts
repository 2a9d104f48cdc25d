import type { ApiClient } from '@streamcloud/api-client';
import { streamRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { billingKeys } from './keys';

export interface BillingStream {
  id: string;
  caption: string | null;
  ownerId: string;
}

/** The stream a report is for, while it exists (a deleted stream's usage is still billed). */
export async function getBillingStream(api: ApiClient, id: string, signal?: AbortSignal): Promise<BillingStream> {
  const stream = await api.call(streamRoutes.get, { params: { id }, ...(signal ? { signal } : {}) });
  return { id: stream.id, caption: stream.caption, ownerId: stream.ownerId };
}

export function billingStreamQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: billingKeys.stream(id),
    queryFn: ({ signal }) => getBillingStream(api, id, signal),
    retry: false,
  });
}

export function useBillingStream(id: string) {
  return useQuery(billingStreamQueryOptions(useApi(), id));
}
