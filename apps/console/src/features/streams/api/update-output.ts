import type { ApiClient } from '@streamcloud/api-client';
import { type BodyOf, type StreamOutput, streamRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { streamKeys } from '@/data/streams/keys';
import { useApi } from '@/lib/services-context';

export type OutputUpdateBody = BodyOf<typeof streamRoutes.updateOutput>;

export function updateOutput(api: ApiClient, id: string, body: OutputUpdateBody): Promise<StreamOutput> {
  return api.call(streamRoutes.updateOutput, { params: { id }, body });
}

/** Changes an output's access policy (live: its node applies it at once). */
export function useUpdateOutput(streamId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: OutputUpdateBody }) => updateOutput(api, id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: streamKeys.outputs(streamId) }),
  });
}
