/** Query keys of accounts, narrowest last: the accounts screen, node group owners, billing and the shell. */
export const accountKeys = {
  all: ['accounts'] as const,
  lists: () => [...accountKeys.all, 'list'] as const,
  details: () => [...accountKeys.all, 'detail'] as const,
  detail: (id: string) => [...accountKeys.details(), id] as const,
  /** The signed-in account (the impersonated one while impersonating). */
  whoami: () => [...accountKeys.all, 'whoami'] as const,
  /** The sign-in security settings (ADMIN). */
  securitySettings: () => [...accountKeys.all, 'security-settings'] as const,
};
