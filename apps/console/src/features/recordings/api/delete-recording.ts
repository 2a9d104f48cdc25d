import type { ApiClient } from '@streamcloud/api-client';
import { recordingRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { recordingKeys } from './keys';

/** Only in Completed or Error. */
export function deleteRecording(api: ApiClient, id: string): Promise<void> {
  return api.call(recordingRoutes.delete, { params: { id } });
}

export function useDeleteRecording() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteRecording(api, id),
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: recordingKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: recordingKeys.lists() });
    },
  });
}
