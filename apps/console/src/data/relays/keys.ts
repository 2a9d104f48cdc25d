/** Query keys of relays, narrowest last. */
export const relayKeys = {
  all: ['relays'] as const,
  lists: () => [...relayKeys.all, 'list'] as const,
  stream: (streamId: string) => [...relayKeys.lists(), { streamId }] as const,
  details: () => [...relayKeys.all, 'detail'] as const,
  detail: (id: string) => [...relayKeys.details(), id] as const,
};

/** The relay list is re-polled this often (section 9). */
export const RELAYS_POLL_MS = 5_000;
