import { nodeRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { useRouteQuery } from '../route-query';
import { nodeKeys } from './keys';

/** While a drain runs, what is left is read again this often (the assignment pass moves streams every few seconds). */
export const DRAIN_POLL_MS = 5_000;

/** A node's drain, read again while it runs and is not done. */
export function useNodeDrain(id: string) {
  return useRouteQuery(
    nodeRoutes.drain,
    nodeKeys.drain(id),
    { params: { id } },
    { refetchInterval: (query) => (query.state.data?.draining && !query.state.data.drained ? DRAIN_POLL_MS : false) },
  );
}

/** POST (start) or DELETE (stop) /nodes/{id}/drain: one switch over two routes; the answer is the drain's new state. */
export function useSetNodeDrain(id: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draining: boolean) =>
      api.call(draining ? nodeRoutes.startDrain : nodeRoutes.stopDrain, { params: { id } }),
    onSuccess: (drain) => queryClient.setQueryData(nodeKeys.drain(id), drain),
  });
}
