import type { ApiClient } from '@streamcloud/api-client';
import { TOTAL_COUNT_HEADER, type WebhookDelivery, webhookRoutes } from '@streamcloud/contract';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { type DeliveryFilter, webhookKeys } from './keys';

/** Rows per page of a delivery log ('Load more' adds a page). */
export const DELIVERIES_PAGE_SIZE = 20;
/** Delivery logs are re-polled this often while shown: attempts finish and retries come due. */
export const DELIVERIES_POLL_MS = 5_000;

export interface DeliveriesPage {
  items: WebhookDelivery[];
  total: number;
}

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
  const total = Number(headers.get(TOTAL_COUNT_HEADER));
  return {
    items: data,
    total: Number.isFinite(total) && headers.has(TOTAL_COUNT_HEADER) ? total : offset + data.length,
  };
}

export function deliveriesQueryOptions(api: ApiClient, filter: DeliveryFilter) {
  return infiniteQueryOptions({
    queryKey: webhookKeys.deliveryList(filter),
    queryFn: ({ pageParam, signal }) => getDeliveriesPage(api, filter, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (last: DeliveriesPage, pages: DeliveriesPage[]) => {
      const loaded = pages.reduce((sum, page) => sum + page.items.length, 0);
      return loaded < last.total && last.items.length > 0 ? loaded : undefined;
    },
    refetchInterval: DELIVERIES_POLL_MS,
  });
}

/** The deliveries of a stream, a resource or an account, newest first, polled while shown. */
export function useDeliveries(filter: DeliveryFilter) {
  return useInfiniteQuery(deliveriesQueryOptions(useApi(), filter));
}
