import type { AppServices } from '@/lib/services';

/**
 * The reads a screen starts with, by path: started with the screen's code (preload-screens.ts) instead of
 * after it has arrived and rendered, so the data and the code come in parallel on the first load.
 */
const SCREEN_DATA: Record<string, (services: AppServices) => Promise<unknown>> = {
  '/streams': async ({ api, queryClient }) => {
    const { streamsQueryOptions } = await import('@/features/streams/api/get-streams');
    return queryClient.prefetchInfiniteQuery(streamsQueryOptions(api, null));
  },
};

/** Every signed-in screen's frame shows the account (the navigation bar, the user menu). */
async function prefetchAccount({ api, queryClient }: AppServices): Promise<void> {
  const { whoAmIQueryOptions } = await import('@/data/accounts/get-whoami');
  return queryClient.prefetchQuery(whoAmIQueryOptions(api));
}

/**
 * Starts the first screen's reads at once; a signed-out visitor has none (the sign-in page reads nothing).
 * Resolves when they are done (the app does not wait: the screens read the cache they fill).
 */
export async function prefetchScreenData(services: AppServices, pathname: string): Promise<void> {
  if (!services.auth.getState().isAuthenticated) return;
  await Promise.all([prefetchAccount(services), SCREEN_DATA[pathname]?.(services)]);
}
