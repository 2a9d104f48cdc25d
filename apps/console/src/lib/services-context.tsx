import type { ApiClient } from '@streamcloud/api-client';
import { createContext, type ReactNode, useContext, useMemo, useSyncExternalStore } from 'react';
import type { AuthState, AuthStore } from './auth-store';

interface Services {
  api: ApiClient;
  auth: AuthStore;
}

const ServicesContext = createContext<Services | null>(null);

export function ServicesProvider({ api, auth, children }: Services & { children: ReactNode }) {
  const value = useMemo(() => ({ api, auth }), [api, auth]);
  return <ServicesContext.Provider value={value}>{children}</ServicesContext.Provider>;
}

function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('ServicesProvider is missing');
  return services;
}

export function useApi(): ApiClient {
  return useServices().api;
}

export function useAuthStore(): AuthStore {
  return useServices().auth;
}

/** The auth state; re-renders on every change. */
export function useAuth(): AuthState {
  const { auth } = useServices();
  // The third: the same state when rendered at build time (app/prerender).
  return useSyncExternalStore(auth.subscribe, auth.getState, auth.getState);
}
