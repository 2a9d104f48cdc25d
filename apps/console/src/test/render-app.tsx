import { type Handler, jsonResponse } from '@streamcloud/api-client/testing';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { AppRouter } from '@/app/app';
import { AppProvider } from '@/app/provider';
import { appRoutes } from '@/app/router';
import { CURRENT_TOKEN_KEY, ORIGINAL_TOKEN_KEY } from '@/lib/auth-store';
import { userAccount, whoAmI } from './fixtures';
import { MemoryStorage } from './memory-storage';
import { createTestServices } from './test-services';

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
  const { mock, services } = createTestServices(handlers, storage);
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

/** The console at `path`, signed in as the user alice (whoami answered), with the test's `handlers`. */
export function renderAsUser(path: string, handlers: Record<string, Handler> = {}) {
  return renderApp({
    path,
    currentToken: 'token',
    handlers: { 'GET /api/v1/accounts/whoami': () => jsonResponse(whoAmI(userAccount)), ...handlers },
  });
}
