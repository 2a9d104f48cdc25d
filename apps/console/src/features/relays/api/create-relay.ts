import type { ApiClient } from '@streamcloud/api-client';
import { type Relay, type RelayCreateInput, relayRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { relayKeys } from './keys';

/** The relay starts in state Relaying. */
export function createRelay(api: ApiClient, body: RelayCreateInput): Promise<Relay> {
  return api.call(relayRoutes.create, { body });
}

export function useCreateRelay() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RelayCreateInput) => createRelay(api, body),
    onSuccess: (relay) => {
      queryClient.setQueryData(relayKeys.detail(relay.id), relay);
      return queryClient.invalidateQueries({ queryKey: relayKeys.lists() });
    },
  });
}
