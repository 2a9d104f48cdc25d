import type { ApiClient } from '@streamcloud/api-client';
import { type Fallback, type FallbackInputDraft, fallbackRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { fallbackKeys } from './keys';

export function updateFallback(api: ApiClient, id: string, body: FallbackInputDraft): Promise<Fallback> {
  return api.call(fallbackRoutes.update, { params: { id }, body });
}

export function useUpdateFallback() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: FallbackInputDraft }) => updateFallback(api, id, body),
    onSuccess: (fallback) => queryClient.invalidateQueries({ queryKey: fallbackKeys.list(fallback.streamId) }),
  });
}
