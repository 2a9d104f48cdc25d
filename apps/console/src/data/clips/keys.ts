/** Query keys of the clips feature, narrowest last. */
export const clipKeys = {
  all: ['clips'] as const,
  lists: () => [...clipKeys.all, 'list'] as const,
  stream: (streamId: string) => [...clipKeys.lists(), { streamId }] as const,
  storageUse: () => [...clipKeys.all, 'storage-use'] as const,
};

/** A stream's clips are re-read this often while one is still being cut. */
export const CLIPS_POLL_MS = 2_000;
