import { errorStatus } from '@streamcloud/api-client';
import type { Query } from '@tanstack/react-query';

/**
 * A `refetchInterval` that reads a resource again every `ms` while a screen shows it; one that is gone (404)
 * is not asked for again.
 */
export function pollWhileFound(ms: number) {
  return <T>(query: Query<T>): number | false => (errorStatus(query.state.error) === 404 ? false : ms);
}
