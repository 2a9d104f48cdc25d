/** The spec's fallback texts (section 8): shown when the server sends no message. */
export const RECORDING_ERRORS = {
  start: 'Something wrong with recording start',
  creation: 'Something wrong with recording creation',
  update: 'Something wrong with recording updating',
  stop: 'Something wrong with recording stop',
  delete: 'Something wrong with recording delete',
} as const;

export const DELETE_RECORDING_QUESTION = 'Do you really want to delete recording? This cannot be undone.';
export const RECORDINGS_LOAD_FAILED = 'The recordings could not be loaded.';
export const NO_CURRENT_TRACKS = 'The stream has no current tracks for this source.';
