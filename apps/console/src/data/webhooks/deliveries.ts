import type { ApiClient } from '@streamcloud/api-client';
import { type WebhookDelivery, webhookRoutes } from '@streamcloud/contract';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { nextOffset, type Page, pageOf } from '../paging';
import { type DeliveryFilter, webhookKeys } from './keys';

/** Rows per page of a delivery log ('Load more' adds a page). */
export const DELIVERIES_PAGE_SIZE = 20;
/** Delivery logs are re-polled this often while shown: attempts finish and retries come due. */
export const DELIVERIES_POLL_MS = 5_000;

export type DeliveriesPage = Page<WebhookDelivery>;

export async function getDeliveriesPage(
  api: ApiClient,
  filter: DeliveryFilter,
  offset: number,
  signal?: AbortSignal,
): Promise<DeliveriesPage> {
  const { data, headers } = await api.send(webhookRoutes.deliveries, {
    query: { ...filter, offset, limit: DELIVERIES_PAGE_SIZE },
    ...(signal ? { signal } : {}),
  });
  return pageOf(data, headers, offset);
}

export function deliveriesQueryOptions(api: ApiClient, filter: DeliveryFilter) {
  return infiniteQueryOptions({
    queryKey: webhookKeys.deliveryList(filter),
    queryFn: ({ pageParam, signal }) => getDeliveriesPage(api, filter, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (_last: DeliveriesPage, pages: DeliveriesPage[]) => nextOffset(pages),
    refetchInterval: DELIVERIES_POLL_MS,
  });
}

/** The deliveries of a stream, a resource or an account, newest first, polled while shown. */
export function useDeliveries(filter: DeliveryFilter) {
  return useInfiniteQuery(deliveriesQueryOptions(useApi(), filter));
}
