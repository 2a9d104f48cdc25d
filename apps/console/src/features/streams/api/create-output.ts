import type { ApiClient } from '@streamcloud/api-client';
import { type BodyOf, type StreamOutput, streamRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { streamKeys } from '@/data/streams/keys';
import { useApi } from '@/lib/services-context';

export type OutputCreateBody = BodyOf<typeof streamRoutes.createOutput>;

export function createOutput(api: ApiClient, body: OutputCreateBody): Promise<StreamOutput> {
  return api.call(streamRoutes.createOutput, { body });
}

export function useCreateOutput() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: OutputCreateBody) => createOutput(api, body),
    onSuccess: (output) => queryClient.invalidateQueries({ queryKey: streamKeys.outputs(output.streamId) }),
  });
}
