import type { ApiClient } from '@streamcloud/api-client';
import { type Recording, type RecordingUpdateInput, recordingRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { recordingKeys } from './keys';

/** File name, storage, callback URI and capture; the file format and autostart are fixed. */
export function updateRecording(api: ApiClient, id: string, body: RecordingUpdateInput): Promise<Recording> {
  return api.call(recordingRoutes.update, { params: { id }, body });
}

export function useUpdateRecording() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: RecordingUpdateInput }) => updateRecording(api, id, body),
    onSuccess: (recording) => {
      queryClient.setQueryData(recordingKeys.detail(recording.id), recording);
      return queryClient.invalidateQueries({ queryKey: recordingKeys.lists() });
    },
  });
}
