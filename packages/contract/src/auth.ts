import { z } from 'zod';
import { Timestamp } from './common.js';
import { defineRoute } from './routes.js';

export const LoginRequest = z.strictObject({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(128),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(128),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const TokenResponse = z.object({ token: z.string() });
export type TokenResponse = z.infer<typeof TokenResponse>;

/** The password step's answer when the account has two-factor sign-in: a ticket for the second step, not a session. */
export const TwoFactorChallenge = z.object({
  twoFactorRequired: z.literal(true),
  ticket: z.string(),
  expiresAt: Timestamp,
});
export type TwoFactorChallenge = z.infer<typeof TwoFactorChallenge>;

/** A session's token, or (two-factor sign-in) the ticket for `POST /login/two-factor`. */
export const LoginResponse = z.union([TokenResponse, TwoFactorChallenge]);
export type LoginResponse = z.infer<typeof LoginResponse>;

export const authRoutes = {
  login: defineRoute({
    method: 'POST',
    path: '/login',
    summary:
      'Sign in with username and password; answers a bearer token, or a ticket for the second step when the account has two-factor sign-in',
    tag: 'auth',
    auth: 'public',
    body: LoginRequest,
    response: LoginResponse,
    errors: [400, 401, 429],
  }),
  logout: defineRoute({
    method: 'POST',
    path: '/logout',
    summary: 'Revoke the presented token (and, while impersonating, the admin token it came from)',
    tag: 'auth',
    auth: 'user',
    beforeTwoFactorEnrolment: true,
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
