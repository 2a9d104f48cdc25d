import {
  createFetchMock,
  emptyResponse,
  errorResponse,
  type Handler,
  jsonResponse,
  networkFailure,
} from '@streamcloud/api-client/testing';
import { accountRoutes } from '@streamcloud/contract';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { userAccount } from '@/test/fixtures';
import { MemoryStorage } from '@/test/memory-storage';
import { IMPERSONATION_ERRORS, LOGIN_ERRORS, loginErrorMessage } from './auth-store';
import { createQueryClient } from './query-client';
import { createAppServices } from './services';

const PREFIX = 'sc.';
const CURRENT = `${PREFIX}current_token`;
const ORIGINAL = `${PREFIX}original_token`;
const IMPERSONATE = `GET /api/v1/accounts/${userAccount.id}/impersonate`;

interface SetupOptions {
  current?: string;
  original?: string;
  handlers?: Record<string, Handler>;
}

function setup({ current, original, handlers = {} }: SetupOptions = {}) {
  const storage = new MemoryStorage();
  if (current) storage.setItem(CURRENT, current);
  if (original) storage.setItem(ORIGINAL, original);
  const mock = createFetchMock(handlers);
  const services = createAppServices(
    { apiBase: '/api/v1', storagePrefix: PREFIX },
    { fetch: mock.fetch, storage, queryClient: createQueryClient({ retry: false }), readCookies: () => '' },
  );
  const listener = vi.fn();
  services.auth.subscribe(listener);
  return { auth: services.auth, api: services.api, storage, mock, listener };
}

const loggedOut = { currentToken: null, originalToken: null, isAuthenticated: false, isImpersonated: false };
const signedIn = (token: string) => ({
  currentToken: token,
  originalToken: null,
  isAuthenticated: true,
  isImpersonated: false,
});
const impersonating = (token: string, original: string) => ({
  currentToken: token,
  originalToken: original,
  isAuthenticated: true,
  isImpersonated: true,
});

function bearerOf(request: { headers: Headers } | undefined) {
  return request?.headers.get('Authorization');
}

let consoleError: MockInstance<typeof console.error>;
beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  consoleError.mockRestore();
});

describe('auth state on start', () => {
  it('is logged out when nothing is stored', () => {
    expect(setup().auth.getState()).toEqual(loggedOut);
  });

  it('is authenticated when a current token is stored', () => {
    expect(setup({ current: 'user-token' }).auth.getState()).toEqual(signedIn('user-token'));
  });

  it('is impersonating when an original token is stored too', () => {
    expect(setup({ current: 'imp-token', original: 'admin-token' }).auth.getState()).toEqual(
      impersonating('imp-token', 'admin-token'),
    );
  });

  it('is logged out when only an original token is stored', () => {
    expect(setup({ original: 'admin-token' }).auth.getState()).toEqual(loggedOut);
  });

  it('reads only the keys carrying the configured prefix', () => {
    const { storage, auth } = setup();
    storage.setItem('current_token', 'unprefixed');
    auth.reload();
    expect(auth.getState()).toEqual(loggedOut);
  });
});

describe('login', () => {
  it('signs in with the trimmed username, keeps the token and no original token', async () => {
    const { auth, mock, storage, listener } = setup({
      handlers: { 'POST /api/v1/login': () => jsonResponse({ token: 'user-token' }) },
    });
    await expect(auth.login({ username: '  alice \t', password: ' secret ' })).resolves.toEqual({ ok: true });
    expect(mock.requests[0]?.body).toEqual({ username: 'alice', password: ' secret ' });
    expect(bearerOf(mock.requests[0])).toBeNull();
    expect(auth.getState()).toEqual(signedIn('user-token'));
    expect(storage.getItem(CURRENT)).toBe('user-token');
    expect(storage.getItem(ORIGINAL)).toBeNull();
    expect(listener).toHaveBeenCalled();
  });

  it('drops a stored original token on success', async () => {
    const { auth, storage } = setup({
      current: 'imp-token',
      original: 'admin-token',
      handlers: { 'POST /api/v1/login': () => jsonResponse({ token: 'fresh' }) },
    });
    await auth.login({ username: 'bob', password: 'secret' });
    expect(auth.getState()).toEqual(signedIn('fresh'));
    expect(storage.items.has(ORIGINAL)).toBe(false);
  });

  it.each([
    [401, LOGIN_ERRORS.invalidCredentials],
    [429, LOGIN_ERRORS.tooManyAttempts],
    [500, LOGIN_ERRORS.server],
    [503, LOGIN_ERRORS.server],
    [400, LOGIN_ERRORS.other],
    [403, LOGIN_ERRORS.other],
    [404, LOGIN_ERRORS.other],
  ])('answers %i with its text, logs the failure and stays logged out', async (status, text) => {
    const { auth } = setup({
      handlers: { 'POST /api/v1/login': () => errorResponse(status, 'server says no') },
    });
    await expect(auth.login({ username: 'alice', password: 'wrong' })).resolves.toEqual({ ok: false, error: text });
    expect(consoleError).toHaveBeenCalledWith('Authentication failed', expect.anything());
    expect(auth.getState()).toEqual(loggedOut);
  });

  it('answers an unreachable server (status 0) with its text', async () => {
    const { auth } = setup({ handlers: { 'POST /api/v1/login': networkFailure } });
    await expect(auth.login({ username: 'alice', password: 'x' })).resolves.toEqual({
      ok: false,
      error: LOGIN_ERRORS.unreachable,
    });
    expect(consoleError).toHaveBeenCalledWith('Authentication failed', expect.anything());
  });

  it('treats an answer without a token as a failure', async () => {
    const { auth } = setup({ handlers: { 'POST /api/v1/login': () => jsonResponse({ token: '' }) } });
    await expect(auth.login({ username: 'alice', password: 'x' })).resolves.toEqual({
      ok: false,
      error: LOGIN_ERRORS.other,
    });
    expect(auth.getState()).toEqual(loggedOut);
  });

  it.each([401, 403])('signs out a signed-in user on %i', async (status) => {
    const { auth, mock, storage } = setup({
      current: 'old-token',
      handlers: {
        'POST /api/v1/login': () => errorResponse(status),
        'POST /api/v1/logout': () => emptyResponse(),
      },
    });
    await auth.login({ username: 'alice', password: 'wrong' });
    expect(auth.getState()).toEqual(loggedOut);
    expect(storage.items.size).toBe(0);
    expect(bearerOf(mock.requests[1])).toBe('Bearer old-token');
  });

  it('keeps a signed-in user on other failures', async () => {
    const { auth } = setup({
      current: 'old-token',
      handlers: { 'POST /api/v1/login': () => errorResponse(500) },
    });
    await auth.login({ username: 'alice', password: 'x' });
    expect(auth.getState()).toEqual(signedIn('old-token'));
  });
});

describe('login error texts', () => {
  it.each([
    [401, 'Invalid credentials. Please check your username and password.'],
    [429, 'Too many login attempts. Please try again later.'],
    [0, 'Unable to connect to the server. Please check your internet connection.'],
    [500, 'Server error. Please try again later or contact support.'],
    [502, 'Server error. Please try again later or contact support.'],
    [599, 'Server error. Please try again later or contact support.'],
    [400, 'An error occurred during authentication. Please try again.'],
    [418, 'An error occurred during authentication. Please try again.'],
    [undefined, 'An error occurred during authentication. Please try again.'],
  ])('status %s reads exactly as the spec says', (status, text) => {
    expect(loginErrorMessage(status)).toBe(text);
  });
});

describe('impersonate', () => {
  it('refuses when not authenticated', async () => {
    const { auth, mock } = setup();
    await expect(auth.impersonate(userAccount.id)).rejects.toThrow('Must be authenticated to impersonate');
    expect(IMPERSONATION_ERRORS.unauthenticated).toBe('Must be authenticated to impersonate');
    expect(mock.requests).toHaveLength(0);
  });

  it('refuses while already impersonating', async () => {
    const { auth, mock } = setup({ current: 'imp-token', original: 'admin-token' });
    await expect(auth.impersonate(userAccount.id)).rejects.toThrow(
      'Already impersonating. Stop current impersonation before impersonating another user.',
    );
    expect(mock.requests).toHaveLength(0);
    expect(auth.getState()).toEqual(impersonating('imp-token', 'admin-token'));
  });

  it("keeps the admin's token as the original and switches to the new one", async () => {
    const { auth, mock, storage } = setup({
      current: 'admin-token',
      handlers: { [IMPERSONATE]: () => jsonResponse({ token: 'imp-token' }) },
    });
    await expect(auth.impersonate(userAccount.id)).resolves.toBe(true);
    expect(bearerOf(mock.requests[0])).toBe('Bearer admin-token');
    expect(auth.getState()).toEqual(impersonating('imp-token', 'admin-token'));
    expect(storage.getItem(CURRENT)).toBe('imp-token');
    expect(storage.getItem(ORIGINAL)).toBe('admin-token');
  });

  it.each([
    ['404', () => errorResponse(404)],
    ['409', () => errorResponse(409)],
    ['500', () => errorResponse(500)],
    ['no answer', networkFailure],
    ['an empty token', () => jsonResponse({ token: '' })],
  ])('on %s logs "Impersonation failed", answers false and changes nothing', async (_, handler) => {
    const { auth } = setup({ current: 'admin-token', handlers: { [IMPERSONATE]: handler } });
    await expect(auth.impersonate(userAccount.id)).resolves.toBe(false);
    expect(consoleError).toHaveBeenCalledWith('Impersonation failed', expect.anything());
    expect(auth.getState()).toEqual(signedIn('admin-token'));
  });

  it.each([401, 403])('on %i logs the user out', async (status) => {
    const { auth, storage } = setup({
      current: 'admin-token',
      handlers: {
        [IMPERSONATE]: () => errorResponse(status),
        'POST /api/v1/logout': () => emptyResponse(),
      },
    });
    await expect(auth.impersonate(userAccount.id)).resolves.toBe(false);
    expect(consoleError).toHaveBeenCalledWith('Impersonation failed', expect.anything());
    expect(auth.getState()).toEqual(loggedOut);
    expect(storage.items.size).toBe(0);
  });

  it('keeps an admin who must enrol two-factor sign-in first signed in (its session is good)', async () => {
    const { auth } = setup({
      current: 'admin-token',
      handlers: { [IMPERSONATE]: () => errorResponse(403, 'Enable it', { code: 'TWO_FACTOR_REQUIRED' }) },
    });
    await expect(auth.impersonate(userAccount.id)).resolves.toBe(false);
    expect(auth.getState()).toEqual(signedIn('admin-token'));
  });
});

describe('stop impersonation', () => {
  it('does nothing and answers false when not impersonating', async () => {
    const { auth, mock, listener } = setup({ current: 'admin-token' });
    await expect(auth.stopImpersonation()).resolves.toBe(false);
    expect(mock.requests).toHaveLength(0);
    expect(listener).not.toHaveBeenCalled();
    expect(auth.getState()).toEqual(signedIn('admin-token'));
  });

  it('answers false when logged out', async () => {
    await expect(setup().auth.stopImpersonation()).resolves.toBe(false);
  });

  it('ends the impersonation on the server and restores the original token', async () => {
    const { auth, mock, storage } = setup({
      current: 'imp-token',
      original: 'admin-token',
      handlers: { 'POST /api/v1/impersonation/stop': () => emptyResponse() },
    });
    await expect(auth.stopImpersonation()).resolves.toBe(true);
    expect(bearerOf(mock.requests[0])).toBe('Bearer imp-token');
    expect(auth.getState()).toEqual(signedIn('admin-token'));
    expect(storage.getItem(CURRENT)).toBe('admin-token');
    expect(storage.items.has(ORIGINAL)).toBe(false);
  });

  it.each([
    ['409', () => errorResponse(409)],
    ['500', () => errorResponse(500)],
    ['no answer', networkFailure],
  ])('restores the original token even when the call fails (%s), logging it', async (_, handler) => {
    const { auth } = setup({
      current: 'imp-token',
      original: 'admin-token',
      handlers: { 'POST /api/v1/impersonation/stop': handler },
    });
    await expect(auth.stopImpersonation()).resolves.toBe(true);
    expect(consoleError).toHaveBeenCalled();
    expect(auth.getState()).toEqual(signedIn('admin-token'));
  });

  it.each([401, 403])('on %i logs the user out and answers false', async (status) => {
    const { auth, storage } = setup({
      current: 'imp-token',
      original: 'admin-token',
      handlers: {
        'POST /api/v1/impersonation/stop': () => errorResponse(status),
        'POST /api/v1/logout': () => emptyResponse(),
      },
    });
    await expect(auth.stopImpersonation()).resolves.toBe(false);
    expect(auth.getState()).toEqual(loggedOut);
    expect(storage.items.size).toBe(0);
  });
});

describe('logout', () => {
  it('clears both tokens and asks the server to revoke the current one', async () => {
    const { auth, mock, storage, listener } = setup({
      current: 'imp-token',
      original: 'admin-token',
      handlers: { 'POST /api/v1/logout': () => emptyResponse() },
    });
    await auth.logout();
    expect(auth.getState()).toEqual(loggedOut);
    expect(storage.items.size).toBe(0);
    expect(bearerOf(mock.requests[0])).toBe('Bearer imp-token');
    expect(listener).toHaveBeenCalled();
  });

  it.each([
    ['500', () => errorResponse(500)],
    ['401', () => errorResponse(401)],
    ['no answer', networkFailure],
  ])('logs out even when the call fails (%s), reporting it on the console only', async (_, handler) => {
    const { auth } = setup({ current: 'user-token', handlers: { 'POST /api/v1/logout': handler } });
    await expect(auth.logout()).resolves.toBeUndefined();
    expect(auth.getState()).toEqual(loggedOut);
    expect(consoleError).toHaveBeenCalledWith('Logout failed', expect.anything());
  });

  it('makes no call when already logged out', async () => {
    const { auth, mock } = setup();
    await auth.logout();
    expect(mock.requests).toHaveLength(0);
  });
});

describe('lost authentication', () => {
  it('logs out when any authenticated call is answered 401', async () => {
    const { auth, api, storage } = setup({
      current: 'imp-token',
      original: 'admin-token',
      handlers: { 'GET /api/v1/accounts': () => errorResponse(401) },
    });
    await expect(api.call(accountRoutes.list)).rejects.toMatchObject({ status: 401 });
    expect(auth.getState()).toEqual(loggedOut);
    expect(storage.items.size).toBe(0);
  });

  it('stays signed in on a 403 to another call', async () => {
    const { auth, api } = setup({
      current: 'user-token',
      handlers: { 'GET /api/v1/accounts': () => errorResponse(403) },
    });
    await expect(api.call(accountRoutes.list)).rejects.toMatchObject({ status: 403 });
    expect(auth.getState()).toEqual(signedIn('user-token'));
  });
});

describe('subscriptions and other tabs', () => {
  it('follows tokens another tab stored', () => {
    const { auth, storage, listener } = setup({ current: 'admin-token' });
    storage.setItem(CURRENT, 'imp-token');
    storage.setItem(ORIGINAL, 'admin-token');
    auth.reload();
    expect(auth.getState()).toEqual(impersonating('imp-token', 'admin-token'));
    expect(listener).toHaveBeenCalledOnce();
  });

  it('does not notify when nothing changed, nor after unsubscribing', () => {
    const { auth, storage } = setup({ current: 'admin-token' });
    const listener = vi.fn();
    const unsubscribe = auth.subscribe(listener);
    auth.reload();
    unsubscribe();
    storage.removeItem(CURRENT);
    auth.reload();
    expect(listener).not.toHaveBeenCalled();
  });
});
