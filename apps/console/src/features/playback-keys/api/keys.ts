/** Query keys of the playback signing keys feature, narrowest last. */
export const playbackKeyKeys = {
  all: ['playback-keys'] as const,
  list: () => [...playbackKeyKeys.all, 'list'] as const,
};
