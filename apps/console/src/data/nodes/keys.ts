/** Query keys of nodes, narrowest last. */
export const nodeKeys = {
  all: ['nodes'] as const,
  lists: () => [...nodeKeys.all, 'list'] as const,
  details: () => [...nodeKeys.all, 'detail'] as const,
  detail: (id: string) => [...nodeKeys.details(), id] as const,
  drain: (id: string) => [...nodeKeys.all, 'drain', id] as const,
};
