/** Query keys of stream tags, narrowest last. */
export const streamTagKeys = {
  all: ['stream-tags'] as const,
  stream: (streamId: string) => [...streamTagKeys.all, 'stream', streamId] as const,
};
