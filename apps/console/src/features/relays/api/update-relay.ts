import type { ApiClient } from '@streamcloud/api-client';
import { type Relay, type RelayUpdateInput, relayRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { relayKeys } from './keys';

/** Output, callback URI and capture; a blank RTMP key keeps the stored one. */
export function updateRelay(api: ApiClient, id: string, body: RelayUpdateInput): Promise<Relay> {
  return api.call(relayRoutes.update, { params: { id }, body });
}

export function useUpdateRelay() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: RelayUpdateInput }) => updateRelay(api, id, body),
    onSuccess: (relay) => {
      queryClient.setQueryData(relayKeys.detail(relay.id), relay);
      return queryClient.invalidateQueries({ queryKey: relayKeys.lists() });
    },
  });
}
