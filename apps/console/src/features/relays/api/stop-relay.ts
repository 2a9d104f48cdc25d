import type { ApiClient } from '@streamcloud/api-client';
import { type Relay, relayRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { relayKeys } from './keys';

/** PUT /relays/{id}/stop with an empty body; only in state Relaying. */
export function stopRelay(api: ApiClient, id: string): Promise<Relay> {
  return api.call(relayRoutes.stop, { params: { id } });
}

export function useStopRelay() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => stopRelay(api, id),
    onSuccess: (relay) => {
      queryClient.setQueryData(relayKeys.detail(relay.id), relay);
      return queryClient.invalidateQueries({ queryKey: relayKeys.lists() });
    },
  });
}
