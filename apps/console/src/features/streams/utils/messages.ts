/** Section 8's fallback texts of the streams area (the server's message is shown when it sent one). */
export const STREAM_ERRORS = {
  creation: 'Something wrong with stream creation',
  loading: 'Something wrong with stream loading',
  stopping: 'Something wrong on stream stopping',
  updating: 'Something wrong on stream updating',
  caption: 'Something wrong on stream caption update!',
  outputCreation: 'Something wrong with output creation',
  sessionsCleanup: 'Something wrong with sessions cleanup',
  outputDelete: 'Something wrong with output delete',
  outputAccess: "Something wrong with the output's access change",
  outputLatency: "Something wrong with the output's HLS latency change",
  outputDvr: "Something wrong with the output's DVR window change",
  ingressCreation: 'Something wrong with ingress endpoint creation',
} as const;

export const DELETE_STREAM_QUESTION = 'Do you really want to delete stream? This cannot be undone.';
export const CAPTION_TOOLTIP = 'Click me to change';

/**
 * The output access policies as the forms name them: Public and Private as the spec names the access modes,
 * Signed with what it means (issue 34: a playback token signed with a key of the account, docs/sell-access.md).
 */
/** An HLS output's packaging (issue 36): nginx-rtmp's TS playlist, or the node's LL-HLS. */
export const HLS_LATENCY_LABELS = {
  Standard: 'Standard (MPEG-TS, any player)',
  Low: 'Low latency (LL-HLS)',
} as const;
/** The live rewind windows offered (minutes; 0: off), up to the contract's most. */
export const DVR_WINDOW_CHOICES = [0, 5, 15, 30, 60, 120, 240] as const;
export const dvrWindowLabel = (minutes: number) =>
  minutes === 0 ? 'Off' : minutes < 60 ? `${minutes} minutes` : `${minutes / 60} hour${minutes === 60 ? '' : 's'}`;
export const DVR_WINDOW_HELP = 'How far back viewers may rewind; the node keeps that much of the stream on its disk.';
export const HLS_LATENCY_HELP =
  'Low latency: about a second behind live in LL-HLS players; other players still play it.';

export const OUTPUT_ACCESS_LABELS = {
  Public: 'Public',
  Private: 'Private',
  Signed: 'Signed (playback tokens only)',
} as const;

/** The dashboard's Past broadcasts card (VODs of ended sessions, issue 35). */
export const VOD_TEXTS = {
  title: 'Past broadcasts',
  none: 'No past broadcast yet: the last one is kept here seconds after a push ends.',
  loadFailed: 'The past broadcasts could not be read',
  started: 'Started',
  ended: 'Ended',
  duration: 'Duration',
  watch: 'Watch',
  closePlayer: 'Close player',
  player: 'Past broadcast player',
  playFailed: 'The past broadcast cannot be played',
  /** Before the file names of the stream's Completed recordings of the same time. */
  recorded: 'Also in your storage (Recordings and Relays card):',
} as const;
