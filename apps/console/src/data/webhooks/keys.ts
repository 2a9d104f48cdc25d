/** Which deliveries a list shows: one stream's (with its outputs, recordings and relays), one resource's, or an account's. */
export interface DeliveryFilter {
  streamId?: string;
  resourceId?: string;
  /** An account id or 'platform' (ADMIN); the caller's own account when absent. */
  account?: string;
}

/** Query keys of webhooks, narrowest last. */
export const webhookKeys = {
  all: ['webhooks'] as const,
  deliveries: () => [...webhookKeys.all, 'deliveries'] as const,
  deliveryList: (filter: DeliveryFilter) => [...webhookKeys.deliveries(), filter] as const,
  secrets: () => [...webhookKeys.all, 'secret'] as const,
  secret: (account: string | undefined) => [...webhookKeys.secrets(), { account: account ?? null }] as const,
};
