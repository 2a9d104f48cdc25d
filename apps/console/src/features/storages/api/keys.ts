/** Query keys of the storages feature, narrowest last. */
export const storageKeys = {
  all: ['storages'] as const,
  lists: () => [...storageKeys.all, 'list'] as const,
  details: () => [...storageKeys.all, 'detail'] as const,
  detail: (id: string) => [...storageKeys.details(), id] as const,
};
