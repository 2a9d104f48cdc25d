import type { ApiClient } from '@streamcloud/api-client';
import { type BodyOf, type StreamInput, streamRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { streamKeys } from '@/data/streams/keys';
import { useApi } from '@/lib/services-context';

/** What PUT /inputs/{id} takes: any of state (Idle stops the stream), streamer and caption. */
export type StreamUpdateBody = Pick<BodyOf<typeof streamRoutes.update>, 'state' | 'streamer' | 'caption'>;

export function updateStream(api: ApiClient, id: string, body: StreamUpdateBody): Promise<StreamInput> {
  return api.call(streamRoutes.update, { params: { id }, body });
}

/** Caption edit, streamer update and stop (state Idle) all go through PUT /inputs/{id}. */
export function useUpdateStream() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: StreamUpdateBody }) => updateStream(api, id, body),
    onSuccess: (stream) => {
      queryClient.setQueryData(streamKeys.detail(stream.id), stream);
      return queryClient.invalidateQueries({ queryKey: streamKeys.lists() });
    },
  });
}
