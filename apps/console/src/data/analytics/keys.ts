/** Query keys of the analytics feature, narrowest last. */
export const analyticsKeys = {
  all: ['analytics'] as const,
  stream: (streamId: string, minutes: number) => [...analyticsKeys.all, 'stream', streamId, minutes] as const,
  sessions: (streamId: string, minutes: number) => [...analyticsKeys.all, 'sessions', streamId, minutes] as const,
  session: (sessionId: string) => [...analyticsKeys.all, 'session', sessionId] as const,
  account: (minutes: number) => [...analyticsKeys.all, 'account', minutes] as const,
  qualityRule: (streamId: string) => [...analyticsKeys.all, 'quality-rule', streamId] as const,
};

/** How often the analytics are asked again while shown: beacons come every 10 s. */
export const ANALYTICS_REFRESH_MS = 15_000;
