import { pollWhileFound } from '../poll';

/** The dashboard re-reads its stream, viewers, tracks and GSLB endpoint this often while it is shown. */
export const DASHBOARD_POLL_MS = 5_000;

/** The dashboard's stream is polled while shown; a stream that is gone is not asked for again. */
export const pollDashboardWhileFound = pollWhileFound(DASHBOARD_POLL_MS);
