import type { ApiClient } from '@streamcloud/api-client';
import { relayRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { relayKeys } from './keys';

/** Only in Completed or Error. */
export function deleteRelay(api: ApiClient, id: string): Promise<void> {
  return api.call(relayRoutes.delete, { params: { id } });
}

export function useDeleteRelay() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteRelay(api, id),
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: relayKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: relayKeys.lists() });
    },
  });
}
