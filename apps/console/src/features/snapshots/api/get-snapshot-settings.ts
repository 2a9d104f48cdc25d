import type { ApiClient } from '@streamcloud/api-client';
import { type SnapshotDirection, type SnapshotSettings, snapshotRoutes } from '@streamcloud/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { snapshotKeys } from './keys';

/** null: that direction takes no snapshots. */
export function getSnapshotSettings(
  api: ApiClient,
  streamId: string,
  direction: SnapshotDirection,
  signal?: AbortSignal,
): Promise<SnapshotSettings | null> {
  return api.call(snapshotRoutes.get, { params: { streamId, direction }, ...(signal ? { signal } : {}) });
}

/** Loading failures are silent (section 8): the query cache only logs them. */
export function snapshotSettingsQueryOptions(api: ApiClient, streamId: string, direction: SnapshotDirection) {
  return queryOptions({
    queryKey: snapshotKeys.direction(streamId, direction),
    queryFn: ({ signal }) => getSnapshotSettings(api, streamId, direction, signal),
  });
}

export function useSnapshotSettings(streamId: string, direction: SnapshotDirection, enabled = true) {
  return useQuery({ ...snapshotSettingsQueryOptions(useApi(), streamId, direction), enabled });
}
