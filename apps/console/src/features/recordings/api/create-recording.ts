import type { ApiClient } from '@streamcloud/api-client';
import { type Recording, type RecordingCreateInput, recordingRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { recordingKeys } from './keys';

/** The recording starts in state Recording (an autostarting one each time the stream ingests). */
export function createRecording(api: ApiClient, body: RecordingCreateInput): Promise<Recording> {
  return api.call(recordingRoutes.create, { body });
}

export function useCreateRecording() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RecordingCreateInput) => createRecording(api, body),
    onSuccess: (recording) => {
      queryClient.setQueryData(recordingKeys.detail(recording.id), recording);
      return queryClient.invalidateQueries({ queryKey: recordingKeys.lists() });
    },
  });
}
