import type { SnapshotDirection } from '@streamcloud/contract';

/** Query keys of snapshots, narrowest last. */
export const snapshotKeys = {
  all: ['snapshots'] as const,
  settings: (streamId: string) => [...snapshotKeys.all, 'settings', streamId] as const,
  direction: (streamId: string, direction: SnapshotDirection) =>
    [...snapshotKeys.settings(streamId), direction] as const,
  image: (streamId: string, direction: SnapshotDirection) =>
    [...snapshotKeys.all, 'image', streamId, direction] as const,
};
