import { matchPath } from 'react-router';
import type { AppServices } from '@/lib/services';

/**
 * The reads a screen starts with, by route pattern: started with the screen's code (preload-screens.ts)
 * instead of after it has arrived and rendered, so the data and the code come in parallel on the first load.
 */
const SCREEN_DATA: Record<string, (services: AppServices, params: Record<string, string>) => Promise<unknown>> = {
  '/streams': async ({ api, queryClient }) => {
    const { streamsQueryOptions } = await import('@/data/streams/list');
    return queryClient.prefetchInfiniteQuery(streamsQueryOptions(api, null));
  },
  // The stream and, in parallel rather than once it is known to be live, what its Preview card needs.
  '/streams/view/:id': async (services, { id = '' }) => {
    const [{ streamQueryOptions }, { prefetchPreview }] = await Promise.all([
      import('@/data/streams/get-stream'),
      import('@/features/streams/components/prefetch-preview'),
    ]);
    return Promise.all([
      services.queryClient.prefetchQuery(streamQueryOptions(services.api, id)),
      prefetchPreview(services, id),
    ]);
  },
};

/** Every signed-in screen's frame shows the account (the navigation bar, the user menu). */
async function prefetchAccount({ api, queryClient }: AppServices): Promise<void> {
  const { whoAmIQueryOptions } = await import('@/data/accounts/get-whoami');
  return queryClient.prefetchQuery(whoAmIQueryOptions(api));
}

function screenData(services: AppServices, pathname: string): Promise<unknown> | undefined {
  for (const [pattern, prefetch] of Object.entries(SCREEN_DATA)) {
    const match = matchPath(pattern, pathname);
    if (match) return prefetch(services, match.params as Record<string, string>);
  }
  return undefined;
}

/**
 * Starts the first screen's reads at once; a signed-out visitor has none (the sign-in page reads nothing).
 * Resolves when they are done (the app does not wait: the screens read the cache they fill).
 */
export async function prefetchScreenData(services: AppServices, pathname: string): Promise<void> {
  if (!services.auth.getState().isAuthenticated) return;
  await Promise.all([prefetchAccount(services), screenData(services, pathname)]);
}
