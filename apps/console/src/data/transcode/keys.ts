/** Query keys of transcode configs (a stream's ladder, overlay and ad markers), narrowest last. */
export const transcodeKeys = {
  all: ['transcode'] as const,
  output: (streamId: string) => [...transcodeKeys.all, 'output', streamId] as const,
};
