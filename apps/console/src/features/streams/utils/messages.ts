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
  ingressCreation: 'Something wrong with ingress endpoint creation',
} as const;

export const DELETE_STREAM_QUESTION = 'Do you really want to delete stream? This cannot be undone.';
export const CAPTION_TOOLTIP = 'Click me to change';

/**
 * The output access policies as the forms name them: Public and Private as the spec names the access modes,
 * Signed with what it means (issue 34: a playback token signed with a key of the account, docs/sell-access.md).
 */
export const OUTPUT_ACCESS_LABELS = {
  Public: 'Public',
  Private: 'Private',
  Signed: 'Signed (playback tokens only)',
} as const;
