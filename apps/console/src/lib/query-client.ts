import { errorStatus } from '@streamcloud/api-client';
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';

const MAX_RETRIES = 2;

/** Only answers that may change on their own are retried: no answer at all, or a 5xx. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  const status = errorStatus(error);
  const transient = status === 0 || (status !== undefined && status >= 500);
  return transient && failureCount < MAX_RETRIES;
}

export function createQueryClient(options: { retry?: boolean } = {}): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => console.error('Loading failed', query.queryKey, error),
    }),
    mutationCache: new MutationCache({
      onError: (error) => console.error('Request failed', error),
    }),
    defaultOptions: {
      queries: { retry: options.retry === false ? false : shouldRetry },
      mutations: { retry: false },
    },
  });
}
