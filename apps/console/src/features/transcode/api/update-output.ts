import type { ApiClient } from '@streamcloud/api-client';
import { type TranscodeConfig, type TranscodeConfigUpdateInput, transcodeRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { transcodeKeys } from './keys';

export function updateOutput(api: ApiClient, id: string, body: TranscodeConfigUpdateInput): Promise<TranscodeConfig> {
  return api.call(transcodeRoutes.update, { params: { id }, body });
}

export function useUpdateOutput() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: TranscodeConfigUpdateInput }) => updateOutput(api, id, body),
    onSuccess: (saved, { id }) => queryClient.setQueryData(transcodeKeys.output(id), saved),
  });
}
