/** Query keys of the transcode feature, narrowest last. */
export const transcodeKeys = {
  all: ['transcode'] as const,
  output: (streamId: string) => [...transcodeKeys.all, 'output', streamId] as const,
};
