import type { ApiClient } from '@streamcloud/api-client';
import { fallbackRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { fallbackKeys } from './keys';

export function deleteFallback(api: ApiClient, id: string): Promise<void> {
  return api.call(fallbackRoutes.delete, { params: { id } });
}

export function useDeleteFallback() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: string; streamId: string }) => deleteFallback(api, id),
    onSuccess: (_, { streamId }) => queryClient.invalidateQueries({ queryKey: fallbackKeys.list(streamId) }),
  });
}
