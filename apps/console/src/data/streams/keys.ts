/** Query keys of streams (inputs) and what hangs off one (viewers, GSLB endpoint), narrowest last: every screen that reads a stream uses these. */
export const streamKeys = {
  all: ['streams'] as const,
  lists: () => [...streamKeys.all, 'list'] as const,
  /** One account's streams (ADMIN), or the caller's own when no account is given. */
  list: (account: string | null) => [...streamKeys.lists(), { account }] as const,
  details: () => [...streamKeys.all, 'detail'] as const,
  detail: (id: string) => [...streamKeys.details(), id] as const,
  outputs: (streamId: string) => [...streamKeys.all, 'outputs', streamId] as const,
  tracks: (streamId: string, type: 'incoming' | 'outgoing') => [...streamKeys.all, 'tracks', streamId, type] as const,
  ingress: (streamId: string) => [...streamKeys.all, 'ingress', streamId] as const,
};
