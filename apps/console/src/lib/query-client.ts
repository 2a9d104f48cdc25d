import { ApiError, errorStatus } from '@streamcloud/api-client';
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';

const MAX_RETRIES = 2;

/** Only answers that may change on their own are retried: no answer at all, or a 5xx. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  const status = errorStatus(error);
  const transient = status === 0 || (status !== undefined && status >= 500);
  return transient && failureCount < MAX_RETRIES;
}

/** The meta of the signed-in identity's query, read again when the API says it must enrol two-factor sign-in. */
export const IDENTITY_META = { identity: true } as const;

export function createQueryClient(options: { retry?: boolean } = {}): QueryClient {
  // The API refuses an admin who must enrol two-factor sign-in first (the setting may have been turned on
  // since whoami was read): the identity's query (whoami, marked IDENTITY_META) is read again, and its flag
  // sends the admin to Account settings (app-layout).
  const onRefused = (error: unknown) => {
    if (error instanceof ApiError && error.code === 'TWO_FACTOR_REQUIRED') {
      void client.invalidateQueries({ predicate: (query) => query.meta?.identity === true });
    }
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        console.error('Loading failed', query.queryKey, error);
        onRefused(error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error) => {
        console.error('Request failed', error);
        onRefused(error);
      },
    }),
    defaultOptions: {
      queries: { retry: options.retry === false ? false : shouldRetry },
      mutations: { retry: false },
    },
  });
  return client;
}
