import type { Handler } from '@streamcloud/api-client/testing';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProvider } from '@/app/provider';
import { createTestServices } from './test-services';

/** One component outside the routes, as a page mounts it (links work), over a mocked fetch. */
export function renderPiece(element: ReactNode, handlers: Record<string, Handler> = {}) {
  const { mock, services } = createTestServices(handlers);
  const router = createMemoryRouter([{ path: '*', element }]);
  render(
    <AppProvider services={services}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { mock, services, user: userEvent.setup() };
}
