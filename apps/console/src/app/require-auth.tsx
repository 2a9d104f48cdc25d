import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAuth } from '@/lib/services-context';
import { loginPath } from './paths';

/**
 * Every route but /login: visitors without a session go to /login?redirect=<where they were>. Apart from
 * the admin guard (guards.tsx, which needs the account and so the API's contract): this one is part of the
 * first load, which must stay small.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { isAuthenticated } = useAuth();
  const location = useLocation();
  if (!isAuthenticated) return <Navigate to={loginPath(location.pathname + location.search)} replace />;
  return children;
}
