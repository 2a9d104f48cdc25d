import type { ApiClient } from '@streamcloud/api-client';
import { type Fallback, type FallbackInputDraft, fallbackRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { fallbackKeys } from './keys';

export function createFallback(api: ApiClient, body: FallbackInputDraft): Promise<Fallback> {
  return api.call(fallbackRoutes.create, { body });
}

export function useCreateFallback() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: FallbackInputDraft) => createFallback(api, body),
    onSuccess: (fallback) => queryClient.invalidateQueries({ queryKey: fallbackKeys.list(fallback.streamId) }),
  });
}
