import type { ApiClient } from '@streamcloud/api-client';
import { PREVIEW_CREDENTIAL_TTL_SECONDS, streamRoutes } from '@streamcloud/contract';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { routeQueryOptions } from '../route-query';
import { streamKeys } from './keys';

/** A new credential well before the last one expires (a session already playing is never cut). */
const RENEW_MS = (PREVIEW_CREDENTIAL_TTL_SECONDS * 1000) / 2;

/** POST /inputs/{id}/preview: the preview player's short-lived playback credential for this stream only. */
export function previewCredentialQueryOptions(api: ApiClient, streamId: string) {
  return {
    ...routeQueryOptions(api, streamRoutes.createPreview, [...streamKeys.detail(streamId), 'preview'], {
      params: { id: streamId },
    }),
    staleTime: RENEW_MS,
  };
}

export function usePreviewCredential(streamId: string) {
  return useQuery({
    ...previewCredentialQueryOptions(useApi(), streamId),
    refetchInterval: RENEW_MS,
    refetchOnWindowFocus: false,
  });
}
