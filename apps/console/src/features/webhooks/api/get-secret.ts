import type { ApiClient } from '@streamcloud/api-client';
import { type WebhookSecret, webhookRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { webhookKeys } from './keys';

export function getSecret(api: ApiClient, account: string | undefined, signal?: AbortSignal): Promise<WebhookSecret> {
  return api.call(webhookRoutes.secret, { query: account ? { account } : {}, ...(signal ? { signal } : {}) });
}

export function secretQueryOptions(api: ApiClient, account: string | undefined) {
  return queryOptions({
    queryKey: webhookKeys.secret(account),
    queryFn: ({ signal }) => getSecret(api, account, signal),
  });
}

/** The signing secret of the caller's account, or of `account` (ADMIN). */
export function useSecret(account: string | undefined) {
  return useQuery(secretQueryOptions(useApi(), account));
}
