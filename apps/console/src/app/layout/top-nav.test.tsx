import { emptyResponse, errorResponse, jsonResponse } from '@streamcloud/api-client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { adminAccount, EMPTY_PAGE_DATA, userAccount, whoAmI } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

const USER_LINKS = [
  ['Streams', '/streams'],
  ['Storages', '/storages'],
  ['Node groups', '/node-groups'],
  ['Metrics', '/metrics'],
  ['Analytics', '/analytics'],
  ['Billing', '/billing/account'],
  ['Webhooks', '/webhooks'],
];
const ADMIN_LINKS = [
  ['Nodes', '/nodes'],
  ['Accounts', '/accounts'],
  ['Audit', '/audit'],
];

function navigation() {
  return within(screen.getByRole('navigation'));
}

function linkNames() {
  return navigation()
    .getAllByRole('link')
    .map((link) => [link.textContent?.trim(), link.getAttribute('href')]);
}

let consoleError: MockInstance<typeof console.error>;
beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => consoleError.mockRestore());

describe('top navigation bar', () => {
  it('offers a USER the common links only and a brand link to the root', async () => {
    renderApp({
      path: '/metrics',
      currentToken: 'user-token',
      handlers: {
        ...EMPTY_PAGE_DATA,
        'GET /api/v1/accounts/whoami': () => jsonResponse(whoAmI(userAccount)),
      },
    });
    await screen.findByRole('button', { name: 'alice' });
    expect(linkNames()).toEqual([['Streamcloud', '/'], ...USER_LINKS]);
    expect(navigation().queryByRole('link', { name: 'Nodes' })).toBeNull();
    expect(navigation().queryByRole('link', { name: 'Accounts' })).toBeNull();
    expect(navigation().getByRole('link', { name: 'Metrics' }).getAttribute('aria-current')).toBe('page');
  });

  it('adds Nodes and Accounts for an ADMIN', async () => {
    renderApp({
      path: '/streams',
      currentToken: 'admin-token',
      handlers: {
        ...EMPTY_PAGE_DATA,
        'GET /api/v1/accounts/whoami': () => jsonResponse(whoAmI(adminAccount)),
      },
    });
    await screen.findByRole('button', { name: 'admin' });
    expect(linkNames()).toEqual(
      expect.arrayContaining([['Streamcloud', '/'], ...USER_LINKS, ...ADMIN_LINKS].map((link) => link)),
    );
    expect(linkNames()).toHaveLength(1 + USER_LINKS.length + ADMIN_LINKS.length);
  });

  it('collapses on every route change', async () => {
    const { user } = renderApp({
      path: '/streams',
      currentToken: 'user-token',
      handlers: {
        ...EMPTY_PAGE_DATA,
        'GET /api/v1/accounts/whoami': () => jsonResponse(whoAmI(userAccount)),
      },
    });
    const toggle = await screen.findByRole('button', { name: 'Toggle navigation' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    await user.click(navigation().getByRole('link', { name: 'Metrics' }));
    await screen.findByRole('heading', { level: 1, name: 'Metrics' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('names the user menu after the account, with Logout and no impersonation controls', async () => {
    const { user } = renderApp({
      path: '/streams',
      currentToken: 'user-token',
      handlers: {
        ...EMPTY_PAGE_DATA,
        'GET /api/v1/accounts/whoami': () => jsonResponse(whoAmI(userAccount)),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'alice' }));
    await screen.findByRole('button', { name: 'Logout' });
    expect(screen.queryByRole('button', { name: 'Stop Impersonation' })).toBeNull();
    expect(screen.queryByText('Impersonating')).toBeNull();
  });

  it('logs out: revokes the token, forgets both tokens and goes to /login', async () => {
    const { user, mock, storage, location } = renderApp({
      path: '/streams',
      currentToken: 'user-token',
      handlers: {
        ...EMPTY_PAGE_DATA,
        'GET /api/v1/accounts/whoami': () => jsonResponse(whoAmI(userAccount)),
        'POST /api/v1/logout': () => emptyResponse(),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'alice' }));
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    await screen.findByRole('heading', { name: 'Login' });
    expect(location()).toBe('/login');
    expect(storage.items.size).toBe(0);
    await waitFor(() => expect(mock.requests.at(-1)?.headers.get('Authorization')).toBe('Bearer user-token'));
  });

  it('shows the Impersonating badge and stops the impersonation', async () => {
    const { user, mock, location } = renderApp({
      path: '/metrics',
      currentToken: 'imp-token',
      originalToken: 'admin-token',
      handlers: {
        ...EMPTY_PAGE_DATA,
        'GET /api/v1/accounts/whoami': ({ headers }) =>
          jsonResponse(
            headers.get('Authorization') === 'Bearer imp-token'
              ? whoAmI(userAccount, adminAccount)
              : whoAmI(adminAccount),
          ),
        'POST /api/v1/impersonation/stop': () => emptyResponse(),
      },
    });
    await screen.findByText('Impersonating');
    expect(navigation().queryByRole('link', { name: 'Accounts' })).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'alice' }));
    await user.click(await screen.findByRole('button', { name: 'Stop Impersonation' }));

    await screen.findByRole('button', { name: 'admin' });
    await waitFor(() => expect(location()).toBe('/streams'));
    expect(screen.queryByText('Impersonating')).toBeNull();
    expect(navigation().getByRole('link', { name: 'Accounts' }).getAttribute('href')).toBe('/accounts');
    const stop = mock.requests.find((request) => request.url.pathname === '/api/v1/impersonation/stop');
    expect(stop?.headers.get('Authorization')).toBe('Bearer imp-token');
  });

  it('goes to /login when authentication is lost', async () => {
    const { location, storage } = renderApp({
      path: '/metrics',
      currentToken: 'expired-token',
      handlers: {
        ...EMPTY_PAGE_DATA,
        'GET /api/v1/accounts/whoami': () => errorResponse(401, 'Session expired'),
      },
    });
    await screen.findByRole('heading', { name: 'Login' });
    expect(location()).toBe('/login?redirect=%2Fmetrics');
    expect(storage.items.size).toBe(0);
  });
});
