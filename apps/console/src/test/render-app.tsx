import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { AppRouter } from '@/app/app';
import { AppProvider } from '@/app/provider';
import { appRoutes } from '@/app/router';
import { CURRENT_TOKEN_KEY, ORIGINAL_TOKEN_KEY } from '@/lib/auth-store';
import { createQueryClient } from '@/lib/query-client';
import { createAppServices } from '@/lib/services';
import { createFetchMock, type Handler } from './fetch-mock';
import { MemoryStorage } from './memory-storage';

export interface RenderAppOptions {
  path?: string;
  handlers?: Record<string, Handler>;
  currentToken?: string;
  originalToken?: string;
}

/** The whole console (real routes, real services) over a mocked fetch, in a memory router. */
export function renderApp({ path = '/', handlers = {}, currentToken, originalToken }: RenderAppOptions = {}) {
  const storage = new MemoryStorage();
  if (currentToken) storage.setItem(CURRENT_TOKEN_KEY, currentToken);
  if (originalToken) storage.setItem(ORIGINAL_TOKEN_KEY, originalToken);
  const mock = createFetchMock(handlers);
  const services = createAppServices(
    { apiBase: '/api/v1', storagePrefix: '' },
    { fetch: mock.fetch, storage, queryClient: createQueryClient({ retry: false }), readCookies: () => '' },
  );
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const user = userEvent.setup();
  render(
    <AppProvider services={services}>
      <AppRouter router={router} />
    </AppProvider>,
  );
  const location = () => `${router.state.location.pathname}${router.state.location.search}`;
  return { router, services, mock, storage, user, location };
}
