/** Query keys of recordings, narrowest last. */
export const recordingKeys = {
  all: ['recordings'] as const,
  lists: () => [...recordingKeys.all, 'list'] as const,
  stream: (streamId: string) => [...recordingKeys.lists(), { streamId }] as const,
  details: () => [...recordingKeys.all, 'detail'] as const,
  detail: (id: string) => [...recordingKeys.details(), id] as const,
  playback: (id: string) => [...recordingKeys.all, 'playback', id] as const,
  tracks: (streamId: string, source: 'incoming' | 'outgoing') =>
    [...recordingKeys.all, 'tracks', streamId, source] as const,
};

/** The recording list is re-polled this often (section 9). */
export const RECORDINGS_POLL_MS = 5_000;
