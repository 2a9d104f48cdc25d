/** Query keys of fallbacks, narrowest last. */
export const fallbackKeys = {
  all: ['fallbacks'] as const,
  lists: () => [...fallbackKeys.all, 'list'] as const,
  list: (streamId: string) => [...fallbackKeys.lists(), streamId] as const,
};
