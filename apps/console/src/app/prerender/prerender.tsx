import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { TokenStorage } from '@/lib/auth-store';
import { DEFAULT_RUNTIME_CONFIG } from '@/lib/runtime-config';
import { createAppServices } from '@/lib/services';
import { AppLayout } from '../layout/app-layout';
import { AppProvider } from '../provider';
import { LoginPage } from '../routes/login';
import { StreamsRoute } from '../routes/streams';

/** The build has no browser storage: nothing is read from it while rendering. */
const noStorage: TokenStorage = {
  getItem: () => null,
  setItem: () => undefined,
  removeItem: () => undefined,
};

/** The app's links as the hash router writes them: the addresses are hash routes (app.tsx). */
const hashLinks = (html: string) => html.replaceAll(' href="/', ' href="#/');

function renderScreen(path: string, screen: ReactNode): string {
  const services = createAppServices(DEFAULT_RUNTIME_CONFIG, { fetch: globalThis.fetch, storage: noStorage });
  return hashLinks(
    renderToStaticMarkup(
      <AppProvider services={services}>
        <MemoryRouter initialEntries={[path]}>{screen}</MemoryRouter>
      </AppProvider>,
    ),
  );
}

/**
 * The screens rendered at build time into index.html (build/prerender.ts), by path: the browser shows the
 * one the address asks for (public/boot.js) as soon as the HTML and the style sheet have arrived, and the
 * app's own replaces it once its code has (lib/prerendered.ts). The sign-in page's button is disabled:
 * nothing could send the form yet. The stream list (the home page) is the signed-in frame and the list's
 * heading, search and filters, waiting for its streams: no data is read at build.
 */
export const PRERENDERED_SCREENS: Record<string, () => string> = {
  '/login': () => renderScreen('/login', <LoginPage onSuccess={() => undefined} prerendered />),
  '/streams': () =>
    renderScreen(
      '/streams',
      <Routes>
        <Route element={<AppLayout />}>
          <Route path="/streams" element={<StreamsRoute />} />
        </Route>
      </Routes>,
    ),
};
