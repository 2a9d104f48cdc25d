/**
 * The spec's fallback texts (section 8). The catalogue has two readings for relay stop and delete; we
 * use the relay texts: 'Something wrong with relay deleting', and 'Something wrong with relay stop' by
 * the same pattern (docs/decisions.md).
 */
export const RELAY_ERRORS = {
  creation: 'Something wrong with relay creation',
  update: 'Something wrong with relay update',
  stop: 'Something wrong with relay stop',
  delete: 'Something wrong with relay deleting',
} as const;

export const DELETE_RELAY_QUESTION = 'Do you really want to delete relay? This cannot be undone.';
export const RELAYS_LOAD_FAILED = 'The relays could not be loaded.';
/** How a stored RTMP stream key is shown: never in clear. */
export const MASKED_KEY = '••••••••';
