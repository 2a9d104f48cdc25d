import { errorStatus } from '@streamcloud/api-client';
import type { Query } from '@tanstack/react-query';

/** The dashboard re-reads its stream, viewers and GSLB endpoint this often while it is shown. */
export const DASHBOARD_POLL_MS = 5_000;

/** The dashboard's stream is polled while shown; a stream that is gone is not asked for again. */
export function pollWhileFound<T>(query: Query<T>): number | false {
  return errorStatus(query.state.error) === 404 ? false : DASHBOARD_POLL_MS;
}
