/** Query keys of location lookups: the stream modal's streamer address, the node form's address. */
export const locationKeys = {
  all: ['location'] as const,
  address: (ipAddress: string) => [...locationKeys.all, ipAddress] as const,
};
