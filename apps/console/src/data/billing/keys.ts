/** Query keys of usage reports (billing), narrowest last. */
export const billingKeys = {
  all: ['billing'] as const,
  accountUsage: (params: object) => [...billingKeys.all, 'account-usage', params] as const,
  streamUsage: (streamId: string, params: object) => [...billingKeys.all, 'stream-usage', streamId, params] as const,
  account: (id: string | null) => [...billingKeys.all, 'account', id ?? 'me'] as const,
};
