import { Suspense, useState } from 'react';
import { flushSync } from 'react-dom';
import { createHashRouter, type DataRouter, RouterProvider } from 'react-router';
import type { AppServices } from '@/lib/services';
import { prefetchScreenData } from './prefetch-data';
import { preloadScreens } from './preload-screens';
import { AppProvider } from './provider';
import { appRoutes } from './router';
import { LoginRoute } from './screens';

/** Lets navigate(…, { flushSync: true }) commit before what follows it. */
function flushRouterUpdate(update: () => unknown): undefined {
  flushSync(update);
}

export function AppRouter({ router }: { router: DataRouter }) {
  // The sign-in screen's code may still be on its way (app/screens.ts); the app layout shows its own wait.
  return (
    <Suspense fallback={null}>
      <RouterProvider router={router} flushSync={flushRouterUpdate} />
    </Suspense>
  );
}

export function App({ services }: { services: AppServices }) {
  const [router] = useState(() => {
    const hashRouter = createHashRouter(appRoutes);
    // Without a session every screen but the sign-in page redirects there.
    if (services.auth.getState().isAuthenticated) preloadScreens(hashRouter.state.matches);
    else void LoginRoute.preload();
    void prefetchScreenData(services, hashRouter.state.location.pathname);
    return hashRouter;
  });
  return (
    <AppProvider services={services}>
      <AppRouter router={router} />
    </AppProvider>
  );
}
