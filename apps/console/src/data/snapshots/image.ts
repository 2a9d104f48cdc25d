import type { ApiClient } from '@streamcloud/api-client';
import { errorStatus } from '@streamcloud/api-client';
import { type SnapshotDirection, snapshotRoutes } from '@streamcloud/contract';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { snapshotKeys } from './keys';

/** The latest image, or null while no node has sent one (404). A fresh query value busts any cache. */
export async function getSnapshotImage(
  api: ApiClient,
  streamId: string,
  direction: SnapshotDirection,
  signal?: AbortSignal,
): Promise<Blob | null> {
  try {
    return await api.blob(snapshotRoutes.image, {
      params: { streamId, direction },
      query: { t: String(Date.now()) },
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (errorStatus(error) === 404) return null;
    throw error;
  }
}

/** Refreshed every `intervalSeconds` (the direction's snapshot interval) while enabled; dropped once unused. */
export function useSnapshotImage(
  streamId: string,
  direction: SnapshotDirection,
  intervalSeconds: number,
  enabled: boolean,
) {
  const api = useApi();
  return useQuery({
    queryKey: snapshotKeys.image(streamId, direction),
    queryFn: ({ signal }) => getSnapshotImage(api, streamId, direction, signal),
    enabled,
    refetchInterval: enabled ? intervalSeconds * 1000 : false,
    refetchIntervalInBackground: false,
    gcTime: 0,
    structuralSharing: false,
  });
}
