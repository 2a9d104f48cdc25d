import type { ApiClient } from '@streamcloud/api-client';
import { type WebhookSecret, webhookRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { webhookKeys } from './keys';

export function rotateSecret(api: ApiClient, account: string | undefined): Promise<WebhookSecret> {
  return api.call(webhookRoutes.rotateSecret, { body: account ? { account } : {} });
}

export function useRotateSecret(account: string | undefined) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => rotateSecret(api, account),
    onSuccess: (secret) => queryClient.setQueryData(webhookKeys.secret(account), secret),
  });
}
