import { errorResponse, type Handler, jsonResponse, networkFailure } from '@streamcloud/api-client/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { LOGIN_ERRORS } from '@/lib/auth-store';
import { PRERENDERED_CLASS } from '@/lib/prerendered';
import { EMPTY_PAGE_DATA, userAccount, whoAmI } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';
import { PRERENDERED_SCREENS } from '../prerender/prerender';

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

describe('the sign-in page pre-rendered into index.html', () => {
  const copies = () => document.querySelectorAll(`.${PRERENDERED_CLASS}`);
  afterEach(() => {
    for (const copy of copies()) copy.remove();
  });

  /** The screens as index.html holds them (build/prerender.ts), before the app's code has arrived. */
  function showPrerendered() {
    const shown: Record<string, ReturnType<typeof within>> = {};
    for (const [path, render] of Object.entries(PRERENDERED_SCREENS)) {
      const copy = document.createElement('div');
      copy.className = PRERENDERED_CLASS;
      copy.dataset.path = path;
      copy.innerHTML = render();
      document.body.append(copy);
      shown[path] = within(copy);
    }
    return shown as Record<'/login' | '/streams', ReturnType<typeof within>>;
  }

  const prerenderedGone = () => waitFor(() => expect(copies()).toHaveLength(0));

  it('is the login page, its button disabled until the app can send it', () => {
    const copy = showPrerendered()['/login'];
    copy.getByRole('heading', { name: 'Login' });
    copy.getByRole('form', { name: 'Login' });
    copy.getByRole('textbox', { name: 'Username' });
    expect(copy.getByLabelText('Password').getAttribute('type')).toBe('password');
    expect((copy.getByRole('button', { name: 'Login' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("gives way to the app's page, which keeps what was typed into it and the focus", async () => {
    const copy = showPrerendered()['/login'];
    (copy.getByLabelText('Username') as HTMLInputElement).value = 'alice';
    const password = copy.getByLabelText('Password') as HTMLInputElement;
    password.value = 'secret';
    password.focus();
    const { user, mock, location } = renderApp({ path: '/login', handlers: signedInHandlers() });
    await prerenderedGone();
    expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('alice');
    expect(document.activeElement).toBe(screen.getByLabelText('Password'));
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(location()).toBe('/streams'));
    expect(mock.requests[0]?.body).toEqual({ username: 'alice', password: 'secret' });
  });

  it("focuses the username, as the app's page does, when nothing in the copy had the focus", async () => {
    showPrerendered();
    renderApp({ path: '/login' });
    await prerenderedGone();
    expect(document.activeElement).toBe(screen.getByLabelText('Username'));
  });

  it('are all taken away by any other screen the app shows', async () => {
    showPrerendered();
    renderApp({ path: '/streams', currentToken: 'token', handlers: signedInHandlers() });
    await prerenderedGone();
    await screen.findByRole('heading', { name: 'Streams' });
    expect(screen.queryByRole('heading', { name: 'Login' })).toBeNull();
  });
});

describe('login screen: two-factor sign-in', () => {
  const challenge = () =>
    jsonResponse({ twoFactorRequired: true, ticket: 'the-ticket', expiresAt: '2027-01-01T00:05:00Z' });

  it('asks for the authentication code after the password, then signs in with ticket and code', async () => {
    const { user, mock, location } = renderApp({
      path: '/login?redirect=%2Fmetrics',
      handlers: {
        ...signedInHandlers(challenge),
        'POST /api/v1/login/two-factor': () => jsonResponse({ token: 't2' }),
      },
    });
    await fillIn(user, 'alice', 'secret');
    const code = await screen.findByLabelText('Authentication code');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Authentication code is required')).not.toBeNull();
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByRole('heading', { name: 'Metrics' });
    expect(location()).toBe('/metrics');
    expect(mock.requests.find((request) => request.url.pathname.endsWith('/login/two-factor'))?.body).toEqual({
      ticket: 'the-ticket',
      code: '123456',
    });
  });

  it("shows a wrong code's refusal in an alert and keeps the step; an expired ticket goes back to the password", async () => {
    let answer = errorResponse(401, 'Invalid authentication code', { code: 'INVALID_CODE' });
    const { user } = renderApp({
      path: '/login',
      handlers: { ...signedInHandlers(challenge), 'POST /api/v1/login/two-factor': () => answer },
    });
    await fillIn(user, 'alice', 'secret');
    await user.type(await screen.findByLabelText('Authentication code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid authentication code');
    answer = errorResponse(401, 'Sign-in expired; enter your username and password again', { code: 'TICKET_EXPIRED' });
    await user.type(screen.getByLabelText('Authentication code'), '111111');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Sign-in expired; enter your username and password again',
    );
    expect(screen.getByRole('button', { name: 'Login' })).not.toBeNull();
  });
});
