import type { ApiClient } from '@streamcloud/api-client';
import { type ApiKey, type ApiKeyCreate, type ApiKeyCreated, apiKeyRoutes } from '@streamcloud/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { settingsKeys } from './keys';

export function getApiKeys(api: ApiClient, signal?: AbortSignal): Promise<ApiKey[]> {
  return api.call(apiKeyRoutes.list, signal ? { signal } : {});
}

/** The signed-in account's API keys, newest first. */
export function useApiKeys() {
  const api = useApi();
  return useQuery({ queryKey: settingsKeys.apiKeys(), queryFn: ({ signal }) => getApiKeys(api, signal) });
}

/** Creates a key; its answer is the only time the key itself is seen. */
export function useCreateApiKey() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiKeyCreate): Promise<ApiKeyCreated> => api.call(apiKeyRoutes.create, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.apiKeys() }),
  });
}

export function useRevokeApiKey() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call(apiKeyRoutes.revoke, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.apiKeys() }),
  });
}
