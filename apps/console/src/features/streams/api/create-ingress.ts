import type { ApiClient } from '@streamcloud/api-client';
import { type IngressEndpoint, streamRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { streamKeys } from '@/data/streams/keys';
import { useApi } from '@/lib/services-context';

export function createIngress(api: ApiClient, streamId: string): Promise<IngressEndpoint> {
  return api.call(streamRoutes.createIngress, { body: { streamId } });
}

/** POST /gslb/input: provisions the stream's global load-balancing ingest endpoint. */
export function useCreateIngress() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (streamId: string) => createIngress(api, streamId),
    onSuccess: (endpoint) => {
      queryClient.setQueryData(streamKeys.ingress(endpoint.streamId), endpoint);
      return queryClient.invalidateQueries({ queryKey: streamKeys.detail(endpoint.streamId) });
    },
  });
}
