import { useState } from 'react';
import { flushSync } from 'react-dom';
import { createHashRouter, type DataRouter, RouterProvider } from 'react-router';
import type { AppServices } from '@/lib/services';
import { AppProvider } from './provider';
import { appRoutes } from './router';

/** Lets navigate(…, { flushSync: true }) commit before what follows it. */
function flushRouterUpdate(update: () => unknown): undefined {
  flushSync(update);
}

export function AppRouter({ router }: { router: DataRouter }) {
  return <RouterProvider router={router} flushSync={flushRouterUpdate} />;
}

export function App({ services }: { services: AppServices }) {
  const [router] = useState(() => createHashRouter(appRoutes));
  return (
    <AppProvider services={services}>
      <AppRouter router={router} />
    </AppProvider>
  );
}
