/** Query keys of metric series (the metrics dashboard, a stream's panel), narrowest last. */
export const metricsKeys = {
  all: ['metrics'] as const,
  dashboard: (params: object) => [...metricsKeys.all, 'dashboard', params] as const,
  stream: (streamId: string, params: object) => [...metricsKeys.all, 'stream', streamId, params] as const,
};
