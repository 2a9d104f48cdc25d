import type { StreamJobsTexts } from '@/components/stream-jobs/stream-jobs-feature';

/** The spec's fallback texts (section 8): shown when the server sends no message. */
export const RECORDING_ERRORS = {
  start: 'Something wrong with recording start',
  creation: 'Something wrong with recording creation',
  update: 'Something wrong with recording updating',
  stop: 'Something wrong with recording stop',
  delete: 'Something wrong with recording delete',
} as const;

/** The recording page's words and those of the dashboard's recordings. */
export const RECORDINGS_TEXTS: StreamJobsTexts = {
  title: 'Recordings',
  add: 'Add recording',
  others: 'Other recordings',
  empty: 'No recordings yet.',
  none: 'No recordings.',
  manage: 'Manage recordings',
  loadFailed: 'The recordings could not be loaded.',
  deleteQuestion: 'Do you really want to delete recording? This cannot be undone.',
  stopFailed: RECORDING_ERRORS.stop,
  deleteFailed: RECORDING_ERRORS.delete,
};

export const NO_CURRENT_TRACKS = 'The stream has no current tracks for this source.';
