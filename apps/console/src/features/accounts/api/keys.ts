/** Query keys of the accounts feature, narrowest last. */
export const accountKeys = {
  all: ['accounts'] as const,
  lists: () => [...accountKeys.all, 'list'] as const,
  whoami: () => [...accountKeys.all, 'whoami'] as const,
};
