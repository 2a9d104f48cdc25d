/** Query keys of the metrics feature, narrowest last. */
export const metricsKeys = {
  all: ['metrics'] as const,
  dashboard: (params: object) => [...metricsKeys.all, 'dashboard', params] as const,
  stream: (streamId: string, params: object) => [...metricsKeys.all, 'stream', streamId, params] as const,
};
