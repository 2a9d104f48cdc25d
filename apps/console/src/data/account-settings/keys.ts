/** Query keys of the signed-in account's own settings (API keys, two-factor sign-in), narrowest last. */
export const settingsKeys = {
  all: ['account-settings'] as const,
  apiKeys: () => [...settingsKeys.all, 'api-keys'] as const,
  twoFactors: () => [...settingsKeys.all, 'two-factor'] as const,
  twoFactor: (accountId: string) => [...settingsKeys.twoFactors(), accountId] as const,
};
