import type { ApiClient } from '@streamcloud/api-client';
import { type WebhookDelivery, webhookRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { webhookKeys } from './keys';

export function redeliver(api: ApiClient, id: string): Promise<WebhookDelivery> {
  return api.call(webhookRoutes.redeliver, { params: { id } });
}

/** Sends a delivery again now; every delivery log shows it Pending at once. */
export function useRedeliver() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => redeliver(api, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries() }),
  });
}
