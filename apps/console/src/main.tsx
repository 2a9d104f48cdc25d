import 'bootstrap/dist/css/bootstrap.min.css';
import './app/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { loadRuntimeConfig } from './lib/runtime-config';
import { createAppServices } from './lib/services';

const fetchFn: typeof fetch = (input, init) => window.fetch(input, init);

void loadRuntimeConfig(fetchFn).then((config) => {
  const services = createAppServices(config, { fetch: fetchFn, storage: window.localStorage });
  window.addEventListener('storage', (event) => {
    if (event.storageArea === window.localStorage) services.auth.reload();
  });
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <App services={services} />
    </StrictMode>,
  );
});
