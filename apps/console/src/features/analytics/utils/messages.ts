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

/** The quality alert's texts (the Viewer experience card). */
export const QUALITY_TEXTS = {
  title: 'Quality alert',
  off: 'Off: no quality.degraded or quality.recovered webhook is sent.',
  rule: (metric: string, threshold: string, minutes: number, minViewers: number) =>
    `quality.degraded when ${metric} is above ${threshold} over the last ${minutes} minutes (with at least ${minViewers} viewers), quality.recovered when it no longer is.`,
  since: (at: string) => `since ${at}`,
  lastCheck: (value: string, viewers: number) => `Last check: ${value} over ${viewers} viewers.`,
  edit: 'Edit alert',
  form: 'Quality alert rule',
  enabled: 'Send quality alerts',
  enabledHelp: "To the stream's callback URI, signed like its other webhooks.",
  metric: 'Metric',
  threshold: 'Threshold',
  thresholdHelp: { percent: 'Percent, 0 to 100.', ms: 'Milliseconds.' },
  window: 'Window (minutes)',
  windowHelp: 'From 1 to 60.',
  save: 'Save alert',
  cancel: 'Cancel',
  loadFailed: 'The quality alert could not be loaded.',
  saveFailed: 'The quality alert could not be saved.',
} as const;
