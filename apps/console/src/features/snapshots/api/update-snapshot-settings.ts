import type { ApiClient } from '@streamcloud/api-client';
import { type SnapshotDirection, type SnapshotSettings, snapshotRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { snapshotKeys } from './keys';

/** PUT with the settings, or with null for a direction that is turned off (section 4). */
export function updateSnapshotSettings(
  api: ApiClient,
  streamId: string,
  direction: SnapshotDirection,
  settings: SnapshotSettings | null,
): Promise<SnapshotSettings | null> {
  return api.call(snapshotRoutes.update, { params: { streamId, direction }, body: settings });
}

export interface SnapshotSettingsChange {
  streamId: string;
  settings: Record<SnapshotDirection, SnapshotSettings | null>;
}

/** Both directions, one call each. */
export function useUpdateSnapshotSettings() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ streamId, settings }: SnapshotSettingsChange) => {
      for (const direction of ['incoming', 'outgoing'] as const) {
        const saved = await updateSnapshotSettings(api, streamId, direction, settings[direction]);
        queryClient.setQueryData(snapshotKeys.direction(streamId, direction), saved);
      }
    },
    onSettled: (_, __, { streamId }) => queryClient.invalidateQueries({ queryKey: snapshotKeys.settings(streamId) }),
  });
}
