import type { ApiClient } from '@streamcloud/api-client';
import { type NodeDrain, nodeRoutes } from '@streamcloud/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { nodeKeys } from './keys';

/** While a drain runs, what is left is read again this often (the assignment pass moves streams every few seconds). */
export const DRAIN_POLL_MS = 5_000;

export function getNodeDrain(api: ApiClient, id: string): Promise<NodeDrain> {
  return api.call(nodeRoutes.drain, { params: { id } });
}

export function useNodeDrain(id: string) {
  const api = useApi();
  return useQuery({
    queryKey: nodeKeys.drain(id),
    queryFn: () => getNodeDrain(api, id),
    refetchInterval: (query) => (query.state.data?.draining && !query.state.data.drained ? DRAIN_POLL_MS : false),
  });
}

/** POST (start) or DELETE (stop) /nodes/{id}/drain; the answer is the drain's new state. */
export function useSetNodeDrain(id: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draining: boolean) =>
      api.call(draining ? nodeRoutes.startDrain : nodeRoutes.stopDrain, { params: { id } }),
    onSuccess: (drain) => queryClient.setQueryData(nodeKeys.drain(id), drain),
  });
}
