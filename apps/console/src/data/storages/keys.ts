/** Query keys of storages, narrowest last: the storages screens and the recording form read through them. */
export const storageKeys = {
  all: ['storages'] as const,
  lists: () => [...storageKeys.all, 'list'] as const,
  details: () => [...storageKeys.all, 'detail'] as const,
  detail: (id: string) => [...storageKeys.details(), id] as const,
};
