import type { ApiClient } from '@streamcloud/api-client';
import { PREVIEW_CREDENTIAL_TTL_SECONDS, streamRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { callRoute } from '../route-query';
import { streamKeys } from './keys';

/** A new credential well before the last one expires (a session already playing is never cut). */
const RENEW_MS = (PREVIEW_CREDENTIAL_TTL_SECONDS * 1000) / 2;

/** POST /inputs/{id}/preview: the preview player's short-lived playback credential for this stream only. */
export function previewCredentialQueryOptions(api: ApiClient, streamId: string) {
  return queryOptions({
    queryKey: [...streamKeys.detail(streamId), 'preview'],
    // Without the query's abort signal: the credential the dashboard's prefetch asked for is not cancelled
    // when a Preview card that also waits for it unmounts.
    queryFn: () => callRoute(api, streamRoutes.createPreview, { params: { id: streamId } }),
    staleTime: RENEW_MS,
  });
}

export function usePreviewCredential(streamId: string) {
  return useQuery({
    ...previewCredentialQueryOptions(useApi(), streamId),
    refetchInterval: RENEW_MS,
    refetchOnWindowFocus: false,
  });
}
