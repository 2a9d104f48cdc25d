import type { ApiClient } from '@streamcloud/api-client';
import { type WebhookDelivery, webhookRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { webhookKeys } from './keys';

export function sendTestEvent(api: ApiClient, url: string, account: string | undefined): Promise<WebhookDelivery> {
  return api.call(webhookRoutes.test, { body: { url, ...(account ? { account } : {}) } });
}

/** Sends a webhook.test event to a URL; the account's log shows its delivery. */
export function useSendTestEvent(account: string | undefined) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (url: string) => sendTestEvent(api, url, account),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries() }),
  });
}
