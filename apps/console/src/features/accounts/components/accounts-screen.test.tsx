import { errorResponse, type Handler, jsonResponse, networkFailure } from '@streamcloud/api-client/testing';
import type { Account } from '@streamcloud/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { adminAccount, EMPTY_PAGE_DATA, userAccount, whoAmI } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

const IMPERSONATE = `GET /api/v1/accounts/${userAccount.id}/impersonate`;

const newAccount: Account = {
  id: '00000000-0000-4000-8000-000000000003',
  username: 'bob',
  email: 'bob@example.com',
  role: 'USER',
  createdAt: '2025-02-01T00:00:00.000Z',
};

function renderAccounts(handlers: Record<string, Handler> = {}) {
  const accounts = [adminAccount, userAccount];
  return renderApp({
    path: '/accounts',
    currentToken: 'admin-token',
    handlers: {
      'GET /api/v1/accounts/whoami': ({ headers }) =>
        jsonResponse(
          headers.get('Authorization') === 'Bearer admin-token'
            ? whoAmI(adminAccount)
            : whoAmI(userAccount, adminAccount),
        ),
      'GET /api/v1/accounts': () => jsonResponse(accounts),
      'GET /api/v1/settings/security': () => jsonResponse({ requireTwoFactorForAdmins: false }),
      'POST /api/v1/accounts': ({ body }) => {
        accounts.push({ ...newAccount, ...(body as Partial<Account>) });
        return jsonResponse(newAccount, 201);
      },
      ...handlers,
    },
  });
}

async function rowOf(username: string) {
  const cell = await screen.findByRole('cell', { name: username });
  const row = cell.closest('tr');
  if (!row) throw new Error(`no row for ${username}`);
  return within(row);
}

let consoleError: MockInstance<typeof console.error>;
beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => consoleError.mockRestore());

describe('accounts screen', () => {
  it('lists accounts with links to their streams and billing', async () => {
    renderAccounts();
    await screen.findByRole('heading', { level: 1, name: 'Accounts' });
    const row = await rowOf('alice');
    row.getByRole('cell', { name: 'USER' });
    expect(row.getByRole('link', { name: 'Streams' }).getAttribute('href')).toBe(`/streams/account/${userAccount.id}`);
    expect(row.getByRole('link', { name: 'Billing' }).getAttribute('href')).toBe(`/billing/account/${userAccount.id}`);
    (await rowOf('admin')).getByRole('cell', { name: 'admin@example.com' });
  });

  it('does not offer to impersonate oneself', async () => {
    renderAccounts();
    expect(((await rowOf('admin')).getByRole('button', { name: 'Impersonate' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(((await rowOf('alice')).getByRole('button', { name: 'Impersonate' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it('impersonates an account and goes to the root route', async () => {
    const { user, location, services } = renderAccounts({
      ...EMPTY_PAGE_DATA,
      [IMPERSONATE]: () => jsonResponse({ token: 'imp-token' }),
    });
    await user.click((await rowOf('alice')).getByRole('button', { name: 'Impersonate' }));
    await screen.findByText('Impersonating');
    await waitFor(() => expect(location()).toBe('/streams'));
    expect(services.auth.getState()).toMatchObject({ currentToken: 'imp-token', originalToken: 'admin-token' });
    await screen.findByRole('button', { name: 'alice' });
  });

  it.each([
    ['a 404', () => errorResponse(404, 'No such account')],
    ['a 409', () => errorResponse(409, 'Nested impersonation')],
    ['no answer', networkFailure],
  ])('alerts "Impersonation failed" on %s and stays', async (_, handler) => {
    const { user, location } = renderAccounts({ [IMPERSONATE]: handler });
    await user.click((await rowOf('alice')).getByRole('button', { name: 'Impersonate' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Impersonation failed');
    expect(location()).toBe('/accounts');
  });

  it('creates a USER by default and refreshes the list', async () => {
    const { user, mock } = renderAccounts();
    await screen.findByRole('cell', { name: 'alice' });
    expect((screen.getByLabelText('Role') as HTMLSelectElement).value).toBe('USER');
    await user.type(screen.getByLabelText('Username'), '  bob ');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.type(screen.getByLabelText('Email (optional)'), 'bob@example.com');
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    await screen.findByRole('cell', { name: 'bob' });
    const post = mock.requests.find((request) => request.method === 'POST');
    expect(post?.body).toEqual({ username: 'bob', password: 'secret1', role: 'USER', email: 'bob@example.com' });
    expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('sends no email when the field is left empty, and the chosen role', async () => {
    const { user, mock } = renderAccounts();
    await user.type(await screen.findByLabelText('Username'), 'carol');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.selectOptions(screen.getByLabelText('Role'), 'ADMIN');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(mock.requests.some((request) => request.method === 'POST')).toBe(true));
    const post = mock.requests.find((request) => request.method === 'POST');
    expect(post?.body).toEqual({ username: 'carol', password: 'secret1', role: 'ADMIN' });
  });

  it('checks the fields before sending', async () => {
    const { user, mock } = renderAccounts();
    await user.type(await screen.findByLabelText('Password'), '12345');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await screen.findByText('Username is required');
    screen.getByText('Password must be at least 6 characters');
    expect(mock.requests.some((request) => request.method === 'POST')).toBe(false);
  });

  it('shows "Invalid!" when the server refuses, with its field messages', async () => {
    const { user } = renderAccounts({
      'POST /api/v1/accounts': () =>
        errorResponse(409, 'Username already exists', { errors: [{ path: 'username', message: 'Already taken' }] }),
    });
    await user.type(await screen.findByLabelText('Username'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid!');
    screen.getByText('Already taken');
    screen.getByText('Username already exists');
  });
});

describe('accounts screen: two-factor authentication', () => {
  it("resets an account's two-factor authentication after a confirmation, and says so", async () => {
    let reset = 0;
    const { user } = renderAccounts({
      [`DELETE /api/v1/accounts/${userAccount.id}/two-factor`]: () => {
        reset += 1;
        return new Response(null, { status: 204 });
      },
    });
    const row = await rowOf(userAccount.username);
    await user.click(row.getByRole('button', { name: `Reset two-factor authentication of ${userAccount.username}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset two-factor authentication' });
    await user.click(within(dialog).getByRole('button', { name: /confirm|yes|reset|ok/i }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      `Two-factor authentication of ${userAccount.username} was reset.`,
    );
    expect(reset).toBe(1);
    const own = await rowOf(adminAccount.username);
    expect(
      (
        own.getByRole('button', {
          name: `Reset two-factor authentication of ${adminAccount.username}`,
        }) as HTMLButtonElement
      ).disabled,
    ).toBe(true);
  });

  it('shows a refused reset in an alert', async () => {
    const { user } = renderAccounts({
      [`DELETE /api/v1/accounts/${userAccount.id}/two-factor`]: () =>
        errorResponse(409, 'This account does not use two-factor sign-in'),
    });
    const row = await rowOf(userAccount.username);
    await user.click(row.getByRole('button', { name: `Reset two-factor authentication of ${userAccount.username}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset two-factor authentication' });
    await user.click(within(dialog).getByRole('button', { name: /confirm|yes|reset|ok/i }));
    expect((await screen.findByRole('alert')).textContent).toContain('This account does not use two-factor sign-in');
  });

  it('saves "Require two-factor authentication for administrators" as soon as it is switched', async () => {
    let saved: unknown;
    const { user } = renderAccounts({
      'PUT /api/v1/settings/security': ({ body }) => {
        saved = body;
        return jsonResponse(body);
      },
    });
    const toggle = await screen.findByLabelText('Require two-factor authentication for administrators');
    expect((toggle as HTMLInputElement).checked).toBe(false);
    await user.click(toggle);
    await waitFor(() => expect(saved).toEqual({ requireTwoFactorForAdmins: true }));
    expect((await screen.findByRole('alert')).textContent).toContain('The security settings were saved.');
  });
});
