import type { ApiClient } from '@streamcloud/api-client';
import { ApiError, errorStatus } from '@streamcloud/api-client';

const authContract = () => import('./auth-routes');

export const CURRENT_TOKEN_KEY = 'current_token';
export const ORIGINAL_TOKEN_KEY = 'original_token';

export const LOGIN_ERRORS = {
  invalidCredentials: 'Invalid credentials. Please check your username and password.',
  tooManyAttempts: 'Too many login attempts. Please try again later.',
  unreachable: 'Unable to connect to the server. Please check your internet connection.',
  server: 'Server error. Please try again later or contact support.',
  other: 'An error occurred during authentication. Please try again.',
} as const;

export const IMPERSONATION_ERRORS = {
  unauthenticated: 'Must be authenticated to impersonate',
  alreadyImpersonating: 'Already impersonating. Stop current impersonation before impersonating another user.',
} as const;

/** The spec's login error text for an answer status (0: no answer). */
export function loginErrorMessage(status: number | undefined): string {
  if (status === 401) return LOGIN_ERRORS.invalidCredentials;
  if (status === 429) return LOGIN_ERRORS.tooManyAttempts;
  if (status === 0) return LOGIN_ERRORS.unreachable;
  if (status !== undefined && status >= 500 && status <= 599) return LOGIN_ERRORS.server;
  return LOGIN_ERRORS.other;
}

export interface AuthState {
  currentToken: string | null;
  /** The admin's own token while impersonating. */
  originalToken: string | null;
  isAuthenticated: boolean;
  isImpersonated: boolean;
}

/**
 * A sign-in's outcome: signed in, refused, or (two-factor sign-in) the password was right and the ticket
 * goes with a code to `loginWithCode`.
 */
export type LoginResult = { ok: true } | { ok: false; error: string } | { ok: false; ticket: string };

/** What the second step says when the ticket is gone (5 minutes, or used): back to the password. */
export const TICKET_EXPIRED = 'TICKET_EXPIRED';

export interface AuthStore {
  getState(): AuthState;
  subscribe(listener: () => void): () => void;
  login(credentials: { username: string; password: string }): Promise<LoginResult>;
  /** Sign-in's second step: the password step's ticket and an authentication or recovery code. */
  loginWithCode(step: {
    ticket: string;
    code: string;
  }): Promise<{ ok: true } | { ok: false; error: string; code?: string }>;
  /** Rejects when not signed in or already impersonating; false when the call fails. */
  impersonate(accountId: string): Promise<boolean>;
  /** False when not impersonating (nothing happens) or when the session was lost. */
  stopImpersonation(): Promise<boolean>;
  /** Forgets both tokens at once, then asks the server to revoke the token (best effort). */
  logout(): Promise<void>;
  /** Authentication was lost: forgets both tokens without calling the server. */
  clearSession(): void;
  /** Re-reads the tokens from storage (another tab changed them). */
  reload(): void;
}

export type TokenStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface AuthStoreOptions {
  /** Resolved lazily: the client's token source is this very store. */
  api: () => ApiClient;
  storage: TokenStorage;
  /** The configurable domain string in front of the storage keys. */
  storagePrefix: string;
}

function toState(currentToken: string | null, originalToken: string | null): AuthState {
  const current = currentToken || null;
  const original = (current && originalToken) || null;
  return {
    currentToken: current,
    originalToken: original,
    isAuthenticated: current !== null,
    isImpersonated: original !== null,
  };
}

/**
 * 401 and 403 answers to the auth and impersonation calls sign the user out; but not the 403 of an admin who
 * must enrol two-factor sign-in first: the session is good, and Account settings is where it goes.
 */
function rejectsSession(error: unknown): boolean {
  const status = errorStatus(error);
  if (error instanceof ApiError && error.code === 'TWO_FACTOR_REQUIRED') return false;
  return status === 401 || status === 403;
}

export function createAuthStore({ api, storage, storagePrefix }: AuthStoreOptions): AuthStore {
  const currentKey = `${storagePrefix}${CURRENT_TOKEN_KEY}`;
  const originalKey = `${storagePrefix}${ORIGINAL_TOKEN_KEY}`;
  const listeners = new Set<() => void>();

  const readStorage = () => toState(storage.getItem(currentKey), storage.getItem(originalKey));
  let state = readStorage();

  function persist(key: string, value: string | null) {
    if (value) storage.setItem(key, value);
    else storage.removeItem(key);
  }

  function publish(next: AuthState) {
    if (next.currentToken === state.currentToken && next.originalToken === state.originalToken) return;
    state = next;
    for (const listener of listeners) listener();
  }

  function setTokens(currentToken: string | null, originalToken: string | null) {
    const next = toState(currentToken, originalToken);
    persist(currentKey, next.currentToken);
    persist(originalKey, next.originalToken);
    publish(next);
  }

  const store: AuthStore = {
    getState: () => state,

    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    async login({ username, password }) {
      try {
        const { authRoutes } = await authContract();
        const answer = await api().call(authRoutes.login, {
          body: { username: username.trim(), password },
          token: null,
        });
        if ('ticket' in answer) return { ok: false, ticket: answer.ticket };
        if (!answer.token) throw new Error('The login answer carried no token');
        setTokens(answer.token, null);
        return { ok: true };
      } catch (error) {
        console.error('Authentication failed', error);
        if (rejectsSession(error)) await store.logout();
        return { ok: false, error: loginErrorMessage(errorStatus(error)) };
      }
    },

    async loginWithCode({ ticket, code }) {
      try {
        const { twoFactorRoutes } = await authContract();
        const { token } = await api().call(twoFactorRoutes.login, { body: { ticket, code }, token: null });
        setTokens(token, null);
        return { ok: true };
      } catch (error) {
        console.error('Two-factor sign-in failed', error);
        const status = errorStatus(error);
        // The server's words say which: a wrong or used code, or a ticket gone.
        if (status === 401 && error instanceof ApiError && error.serverMessage) {
          return { ok: false, error: error.serverMessage, ...(error.code ? { code: error.code } : {}) };
        }
        return { ok: false, error: loginErrorMessage(status) };
      }
    },

    async impersonate(accountId) {
      if (!state.isAuthenticated) throw new Error(IMPERSONATION_ERRORS.unauthenticated);
      if (state.isImpersonated) throw new Error(IMPERSONATION_ERRORS.alreadyImpersonating);
      const adminToken = state.currentToken;
      try {
        const { accountRoutes } = await authContract();
        const { token } = await api().call(accountRoutes.impersonate, { params: { id: accountId } });
        if (!token) throw new Error('The impersonation answer carried no token');
        setTokens(token, adminToken);
        return true;
      } catch (error) {
        console.error('Impersonation failed', error);
        if (rejectsSession(error)) await store.logout();
        return false;
      }
    },

    async stopImpersonation() {
      if (!state.isImpersonated) return false;
      try {
        const { authRoutes } = await authContract();
        await api().call(authRoutes.stopImpersonation);
      } catch (error) {
        console.error('Stopping impersonation failed', error);
        if (rejectsSession(error)) {
          await store.logout();
          return false;
        }
      }
      setTokens(state.originalToken, null);
      return true;
    },

    async logout() {
      const token = state.currentToken;
      setTokens(null, null);
      if (!token) return;
      try {
        const { authRoutes } = await authContract();
        await api().call(authRoutes.logout, { token });
      } catch (error) {
        console.error('Logout failed', error);
      }
    },

    clearSession() {
      setTokens(null, null);
    },

    reload() {
      publish(readStorage());
    },
  };
  return store;
}
