import { z } from 'zod';
import { defineRoute } from './routes.js';

export const LoginRequest = z.strictObject({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(128),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(128),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const TokenResponse = z.object({ token: z.string() });
export type TokenResponse = z.infer<typeof TokenResponse>;

export const authRoutes = {
  login: defineRoute({
    method: 'POST',
    path: '/login',
    summary: 'Sign in with username and password; answers a bearer token',
    tag: 'auth',
    auth: 'public',
    body: LoginRequest,
    response: TokenResponse,
    errors: [400, 401, 429],
  }),
  logout: defineRoute({
    method: 'POST',
    path: '/logout',
    summary: 'Revoke the presented token (and, while impersonating, the admin token it came from)',
    tag: 'auth',
    auth: 'user',
    sessionOnly: true,
    response: null,
  }),
  stopImpersonation: defineRoute({
    method: 'POST',
    path: '/impersonation/stop',
    summary: "End an impersonation: revokes the impersonation token; the admin's own token stays valid",
    tag: 'auth',
    auth: 'user',
    sessionOnly: true,
    response: null,
    errors: [409],
  }),
};
