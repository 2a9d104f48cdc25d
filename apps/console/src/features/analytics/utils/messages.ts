/** The analytics screens' texts. */
export const ANALYTICS_TEXTS = {
  streamTitle: 'Viewer experience',
  accountTitle: 'Viewer analytics',
  window: 'Window',
  loadFailed: 'The viewer analytics could not be loaded.',
  sessionsFailed: 'The playback sessions could not be loaded.',
  timelineFailed: 'The session timeline could not be loaded.',
  noSessions: 'No playback sessions in this window.',
  noBeacons: 'No viewer has reported in this window yet.',
  sessions: 'Playback sessions',
  timeline: 'Timeline',
} as const;
