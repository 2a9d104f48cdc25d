import type { ApiClient } from '@streamcloud/api-client';
import { type StreamInput, type StreamInputCreateDraft, streamRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { streamKeys } from '@/data/streams/keys';
import { useApi } from '@/lib/services-context';

export function createStream(api: ApiClient, body: StreamInputCreateDraft): Promise<StreamInput> {
  return api.call(streamRoutes.create, { body });
}

export function useCreateStream() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StreamInputCreateDraft) => createStream(api, body),
    onSuccess: (stream) => {
      queryClient.setQueryData(streamKeys.detail(stream.id), stream);
      return queryClient.invalidateQueries({ queryKey: streamKeys.lists() });
    },
  });
}
