import type { ApiClient } from '@streamcloud/api-client';
import { streamRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { streamKeys } from '@/data/streams/keys';
import { useApi } from '@/lib/services-context';

export function clearOutputSessions(api: ApiClient, id: string): Promise<void> {
  return api.call(streamRoutes.clearOutputSessions, { params: { id } });
}

export function useClearOutputSessions(streamId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => clearOutputSessions(api, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: streamKeys.outputs(streamId) }),
  });
}
