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
  ingressCreation: 'Something wrong with ingress endpoint creation',
  tokenRotation: 'The token could not be rotated.',
} as const;

export const DELETE_STREAM_QUESTION = 'Do you really want to delete stream? This cannot be undone.';
export const CAPTION_TOOLTIP = 'Click me to change';

/** Token rotation (issue 34): the dialog's texts. */
export const TOKEN_ROTATION_TEXTS = {
  never: 'Never rotated',
  help: 'How long the old token is still taken beside the new one, so publishers and players can move over (0 to 1440).',
  shownOnce: 'Copy the new token now: this dialog shows it only this once.',
  stoppedNow: 'The old token stopped working now.',
  /** Publishers and viewers already connected with the old token go on; new ones need a valid token. */
  running: 'Pushes and viewers already connected with the old token are not cut.',
} as const;

export const lastRotatedText = (rotatedAt: string | null, format: (value: string) => string) =>
  rotatedAt ? `Last rotated ${format(rotatedAt)}` : TOKEN_ROTATION_TEXTS.never;
