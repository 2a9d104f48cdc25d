import type { ApiClient } from '@streamcloud/api-client';
import { type AccessTokenRotate, type RotatedAccessToken, streamRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { streamKeys } from '@/data/streams/keys';
import { useApi } from '@/lib/services-context';

export function rotateOutputToken(api: ApiClient, id: string, body: AccessTokenRotate): Promise<RotatedAccessToken> {
  return api.call(streamRoutes.rotateOutputAccessToken, { params: { id }, body });
}

/** Rotates an output's viewer token; the stream's viewers are read again (the token and when it was rotated). */
export function useRotateOutputToken(streamId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: AccessTokenRotate }) => rotateOutputToken(api, id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: streamKeys.outputs(streamId) }),
  });
}
