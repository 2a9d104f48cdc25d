import type { ApiClient } from '@streamcloud/api-client';
import { type Recording, recordingRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { recordingKeys } from './keys';

/** PUT /recordings/{id}/stop with an empty body; only in state Recording. */
export function stopRecording(api: ApiClient, id: string): Promise<Recording> {
  return api.call(recordingRoutes.stop, { params: { id } });
}

export function useStopRecording() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => stopRecording(api, id),
    onSuccess: (recording) => {
      queryClient.setQueryData(recordingKeys.detail(recording.id), recording);
      return queryClient.invalidateQueries({ queryKey: recordingKeys.lists() });
    },
  });
}
