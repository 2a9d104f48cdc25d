import type { StreamJobsTexts } from '@/components/stream-jobs/stream-jobs-feature';

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

/** The relay page's words and those of the dashboard's relays. */
export const RELAYS_TEXTS: StreamJobsTexts = {
  title: 'Relays',
  add: 'Add relay',
  others: 'Other relays',
  empty: 'No relays yet.',
  none: 'No relays.',
  manage: 'Manage relays',
  loadFailed: 'The relays could not be loaded.',
  deleteQuestion: 'Do you really want to delete relay? This cannot be undone.',
  stopFailed: RELAY_ERRORS.stop,
  deleteFailed: RELAY_ERRORS.delete,
};

/** How a stored RTMP stream key is shown: never in clear. */
export const MASKED_KEY = '••••••••';
