import 'bootstrap/dist/css/bootstrap.min.css';
import './app/app.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { loadRuntimeConfig } from './lib/runtime-config';
import { createAppServices } from './lib/services';

const fetchFn: typeof fetch = (input, init) => window.fetch(input, init);

/**
 * The built page's style sheet is put in the page with the scripts (public/boot.js) and may arrive after
 * them: the app's screens wait for it, so none shows unstyled (in development Vite's scripts insert the CSS).
 */
function styleSheetsLoaded(): Promise<unknown> {
  const pending = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].filter(
    (link) => link.sheet === null,
  );
  return Promise.all(
    pending.map(
      (link) =>
        new Promise((resolve) => {
          link.addEventListener('load', resolve, { once: true });
          link.addEventListener('error', resolve, { once: true });
        }),
    ),
  );
}

void Promise.all([loadRuntimeConfig(fetchFn), styleSheetsLoaded()]).then(([config]) => {
  const services = createAppServices(config, { fetch: fetchFn, storage: window.localStorage });
  window.addEventListener('storage', (event) => {
    if (event.storageArea === window.localStorage) services.auth.reload();
  });
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  // A transition: the first render yields to the browser every few ms instead of holding the main thread
  // for the whole app (issue 21: total blocking time on a phone); the pre-rendered screen stays in sight
  // meanwhile, and is replaced in the commit that shows the app's own.
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App services={services} />
      </StrictMode>,
    );
  });
});
