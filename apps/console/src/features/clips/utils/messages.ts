import { CLIP_MESSAGES } from '@streamcloud/contract';

/** The clips feature's texts (the rules' texts are the contract's: form and server say the same). */
export const CLIP_TEXTS = {
  createButton: 'Create clip',
  dialogTitle: 'Create a clip',
  markIn: 'Mark in',
  markOut: 'Mark out',
  inLabel: 'In (date-time)',
  outLabel: 'Out (date-time)',
  captionLabel: 'Caption',
  storageLabel: 'Storage',
  storageDefault: "The storage of the stream's latest recording",
  keyframeNote: CLIP_MESSAGES.keyframeNote,
  noPosition:
    'The player has no position to mark: play an HLS output of the stream (a Low latency output with a rewind window lets you go back)',
  created: 'Clip requested: it is ready in a few seconds',
  createFailed: 'Something wrong with clip creation',
  deleteQuestion: 'Do you really want to delete the clip and its file? This cannot be undone.',
  deleteFailed: 'Something wrong with clip delete',
  downloadFailed: 'Something wrong with clip download',
  playFailed: 'Something wrong with clip playback',
  player: 'Clip player',
  closePlayer: 'Close player',
  none: 'No clips yet: mark in and out on the preview player and create one.',
  noCaption: '(no caption)',
} as const;
