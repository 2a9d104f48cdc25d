import { errorResponse, type Handler, jsonResponse, networkFailure } from '@streamcloud/api-client/testing';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { LOGIN_ERRORS } from '@/lib/auth-store';
import { EMPTY_PAGE_DATA, userAccount, whoAmI } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

const signedInHandlers = (login: Handler = () => jsonResponse({ token: 'user-token' })) => ({
  ...EMPTY_PAGE_DATA,
  'POST /api/v1/login': login,
  'GET /api/v1/accounts/whoami': () => jsonResponse(whoAmI(userAccount)),
});

async function fillIn(user: ReturnType<typeof renderApp>['user'], username: string, password: string) {
  await user.type(screen.getByLabelText('Username'), username);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

let consoleError: MockInstance<typeof console.error>;
beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => consoleError.mockRestore());

describe('login screen', () => {
  it('has labelled fields, a Login button and no navigation bar', async () => {
    renderApp({ path: '/login' });
    await screen.findByRole('heading', { name: 'Login' });
    expect(screen.getByRole('textbox', { name: 'Username' })).toBe(screen.getByLabelText('Username'));
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password');
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('requires both fields, with the spec texts, and calls nothing', async () => {
    const { user, mock } = renderApp({ path: '/login' });
    await user.click(await screen.findByRole('button', { name: 'Login' }));
    await screen.findByText('Username is required');
    screen.getByText('Password is required');
    expect(screen.getByLabelText('Username').getAttribute('aria-invalid')).toBe('true');
    expect(mock.requests).toHaveLength(0);
  });

  it('counts a username of blanks as missing', async () => {
    const { user, mock } = renderApp({ path: '/login' });
    await fillIn(user, '   ', 'secret');
    await screen.findByText('Username is required');
    expect(screen.queryByText('Password is required')).toBeNull();
    expect(mock.requests).toHaveLength(0);
  });

  it('signs in with the trimmed username and goes to the redirect target', async () => {
    const { user, mock, location } = renderApp({ path: '/login?redirect=%2Fmetrics', handlers: signedInHandlers() });
    await fillIn(user, '  alice  ', 'secret');
    await screen.findByRole('heading', { name: 'Metrics' });
    expect(location()).toBe('/metrics');
    expect(mock.requests[0]?.body).toEqual({ username: 'alice', password: 'secret' });
  });

  it('goes to the root (then /streams) without a redirect target', async () => {
    const { user, location } = renderApp({ path: '/login', handlers: signedInHandlers() });
    await fillIn(user, 'alice', 'secret');
    await screen.findByRole('heading', { name: 'Streams' });
    expect(location()).toBe('/streams');
  });

  it('ignores a redirect target outside the console', async () => {
    const { user, location } = renderApp({
      path: `/login?redirect=${encodeURIComponent('//evil.example.com/x')}`,
      handlers: signedInHandlers(),
    });
    await fillIn(user, 'alice', 'secret');
    await waitFor(() => expect(location()).toBe('/streams'));
  });

  it.each([
    ['401', () => errorResponse(401, 'Bad credentials'), LOGIN_ERRORS.invalidCredentials],
    ['429', () => errorResponse(429), LOGIN_ERRORS.tooManyAttempts],
    ['no answer', networkFailure, LOGIN_ERRORS.unreachable],
    ['500', () => errorResponse(500), LOGIN_ERRORS.server],
    ['400', () => errorResponse(400), LOGIN_ERRORS.other],
  ])('shows the text for %s in an alert and stays', async (_, handler, text) => {
    const { user, location } = renderApp({ path: '/login?redirect=%2Fmetrics', handlers: signedInHandlers(handler) });
    await fillIn(user, 'alice', 'wrong');
    expect((await screen.findByRole('alert')).textContent).toBe(text);
    expect(location()).toBe('/login?redirect=%2Fmetrics');
  });
});
