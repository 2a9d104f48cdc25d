/** Query keys of playback signing keys, narrowest last. */
export const playbackKeyKeys = {
  all: ['playback-keys'] as const,
  list: () => [...playbackKeyKeys.all, 'list'] as const,
};
