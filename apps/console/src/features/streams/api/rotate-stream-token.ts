import type { ApiClient } from '@streamcloud/api-client';
import { type AccessTokenRotate, type RotatedAccessToken, streamRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { streamKeys } from '@/data/streams/keys';
import { useApi } from '@/lib/services-context';

export function rotateStreamToken(api: ApiClient, id: string, body: AccessTokenRotate): Promise<RotatedAccessToken> {
  return api.call(streamRoutes.rotateAccessToken, { params: { id }, body });
}

/** Rotates the stream's ingest token; the dashboard reads the stream again (its token and when it was rotated). */
export function useRotateStreamToken(streamId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AccessTokenRotate) => rotateStreamToken(api, streamId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: streamKeys.detail(streamId) }),
  });
}
