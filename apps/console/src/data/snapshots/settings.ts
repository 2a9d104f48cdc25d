import { type SnapshotDirection, type SnapshotSettings, snapshotRoutes } from '@streamcloud/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@/lib/services-context';
import { callRoute, useRouteQuery } from '../route-query';
import { snapshotKeys } from './keys';

/**
 * One direction's snapshot settings, null when it takes no snapshots (the previews and the settings form).
 * Loading failures are silent (section 8): the query cache only logs them.
 */
export function useSnapshotSettings(streamId: string, direction: SnapshotDirection) {
  return useRouteQuery(snapshotRoutes.get, snapshotKeys.direction(streamId, direction), {
    params: { streamId, direction },
  });
}

export interface SnapshotSettingsChange {
  streamId: string;
  settings: Record<SnapshotDirection, SnapshotSettings | null>;
}

/** Both directions, one PUT each: the settings, or null for a direction that is turned off (section 4). */
export function useUpdateSnapshotSettings() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ streamId, settings }: SnapshotSettingsChange) => {
      for (const direction of ['incoming', 'outgoing'] as const) {
        const saved = await callRoute(api, snapshotRoutes.update, {
          params: { streamId, direction },
          body: settings[direction],
        });
        queryClient.setQueryData(snapshotKeys.direction(streamId, direction), saved);
      }
    },
    onSettled: (_, __, { streamId }) => queryClient.invalidateQueries({ queryKey: snapshotKeys.settings(streamId) }),
  });
}
