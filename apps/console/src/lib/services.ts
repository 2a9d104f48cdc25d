import { type ApiClient, createApiClient } from '@streamcloud/api-client';
import type { QueryClient } from '@tanstack/react-query';
import { type AuthStore, createAuthStore, type TokenStorage } from './auth-store';
import { createQueryClient } from './query-client';
import type { RuntimeConfig } from './runtime-config';

export interface AppServices {
  api: ApiClient;
  auth: AuthStore;
  queryClient: QueryClient;
}

export interface ServiceDeps {
  fetch: typeof fetch;
  storage: TokenStorage;
  readCookies?: () => string;
  queryClient?: QueryClient;
}

/** Wires the API client, the auth state and the query cache together. */
export function createAppServices(config: RuntimeConfig, deps: ServiceDeps): AppServices {
  const queryClient = deps.queryClient ?? createQueryClient();
  const auth: AuthStore = createAuthStore({
    api: () => api,
    storage: deps.storage,
    storagePrefix: config.storagePrefix,
  });
  const api = createApiClient({
    apiBase: config.apiBase,
    fetch: deps.fetch,
    getToken: () => auth.getState().currentToken,
    onUnauthorized: () => auth.clearSession(),
    ...(deps.readCookies ? { readCookies: deps.readCookies } : {}),
  });

  // Cached data belongs to the identity that loaded it.
  let token = auth.getState().currentToken;
  auth.subscribe(() => {
    const next = auth.getState().currentToken;
    if (next === token) return;
    token = next;
    if (next) void queryClient.resetQueries();
    else queryClient.clear();
  });

  return { api, auth, queryClient };
}
