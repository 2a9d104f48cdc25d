/** Query keys of the account settings feature, narrowest last. */
export const settingsKeys = {
  all: ['account-settings'] as const,
  apiKeys: () => [...settingsKeys.all, 'api-keys'] as const,
  twoFactor: (accountId: string) => [...settingsKeys.all, 'two-factor', accountId] as const,
};
