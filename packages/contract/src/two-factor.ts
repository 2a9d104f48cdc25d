import { z } from 'zod';
import { LoginRequest, TokenResponse } from './auth.js';
import { IdParams, Timestamp } from './common.js';
import { defineRoute } from './routes.js';

/** Recovery codes shown once when two-factor sign-in is enabled. */
export const RECOVERY_CODE_COUNT = 10;
/** Seconds a sign-in ticket (the password step's answer) stays usable. */
export const TWO_FACTOR_TICKET_SECONDS = 5 * 60;

const CODE_MESSAGE = 'Enter the 6-digit code from your app or a recovery code';

/**
 * What the second step takes: a 6-digit TOTP code, or a recovery code (16 base32 characters, written in
 * groups of 4 with dashes; case, spaces and dashes are ignored).
 */
export const TwoFactorCode = z
  .string({ error: 'Code is required' })
  .trim()
  .min(1, 'Code is required')
  .max(32, CODE_MESSAGE)
  .regex(/^(\d{3} ?\d{3}|[A-Za-z2-7]{4}([- ]?[A-Za-z2-7]{4}){3})$/, CODE_MESSAGE);

/** A code from the authenticator app only (enrolment's confirmation). */
export const TotpCode = z
  .string({ error: 'Code is required' })
  .trim()
  .min(1, 'Code is required')
  .regex(/^\d{3} ?\d{3}$/, 'Enter the 6-digit code from your app');

/**
 * Enrolment's start (or its replacement) asks for the account's password again, checked as sign-in checks
 * it (same rules as `LoginRequest.password`): a stolen session alone cannot enrol another device.
 */
export const TwoFactorStartRequest = z.strictObject({ password: LoginRequest.shape.password });
export type TwoFactorStartRequest = z.infer<typeof TwoFactorStartRequest>;

export const TwoFactorCodeRequest = z.strictObject({ code: TwoFactorCode });
export type TwoFactorCodeRequest = z.infer<typeof TwoFactorCodeRequest>;

export const TwoFactorConfirmRequest = z.strictObject({ code: TotpCode });
export type TwoFactorConfirmRequest = z.infer<typeof TwoFactorConfirmRequest>;

export const TwoFactorLoginRequest = z.strictObject({
  ticket: z.string({ error: 'Ticket is required' }).min(1, 'Ticket is required').max(128),
  code: TwoFactorCode,
});
export type TwoFactorLoginRequest = z.infer<typeof TwoFactorLoginRequest>;

export const TwoFactorStatus = z.object({
  enabled: z.boolean(),
  enabledAt: Timestamp.nullable(),
  /** Recovery codes not used yet. */
  recoveryCodesLeft: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatus>;

/** Enrolment's start: the only answer that carries the shared secret. */
export const TwoFactorEnrolment = z.object({
  /** The secret in base32 without padding, for typing into an app. */
  secret: z.string(),
  /** `otpauth://totp/…`, what the QR code holds. */
  uri: z.string(),
});
export type TwoFactorEnrolment = z.infer<typeof TwoFactorEnrolment>;

export const RecoveryCodes = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof RecoveryCodes>;

export const SecuritySettings = z.object({
  /** ADMIN accounts without two-factor sign-in are sent to enrol it after signing in. */
  requireTwoFactorForAdmins: z.boolean(),
});
export type SecuritySettings = z.infer<typeof SecuritySettings>;

export const SecuritySettingsUpdate = z.strictObject({
  requireTwoFactorForAdmins: z.boolean({ error: 'requireTwoFactorForAdmins must be true or false' }),
});
export type SecuritySettingsUpdate = z.infer<typeof SecuritySettingsUpdate>;

export const twoFactorRoutes = {
  login: defineRoute({
    method: 'POST',
    path: '/login/two-factor',
    summary: "Second sign-in step: the password step's ticket and a code (or a recovery code); answers a bearer token",
    tag: 'auth',
    auth: 'public',
    body: TwoFactorLoginRequest,
    response: TokenResponse,
    errors: [400, 401, 429],
  }),
  status: defineRoute({
    method: 'GET',
    path: '/accounts/:id/two-factor',
    summary: 'Whether an account has two-factor sign-in (USER its own, ADMIN any; 403 otherwise)',
    tag: 'auth',
    auth: 'user',
    beforeTwoFactorEnrolment: true,
    sessionOnly: true,
    params: IdParams,
    response: TwoFactorStatus,
    errors: [403, 404],
  }),
  start: defineRoute({
    method: 'POST',
    path: '/two-factor/enrolment',
    summary:
      "Start (or restart) enabling two-factor sign-in for the caller, with the account's password again (checked and " +
      'throttled as sign-in): a new secret (only in this answer) and its otpauth:// URI',
    tag: 'auth',
    auth: 'user',
    beforeTwoFactorEnrolment: true,
    sessionOnly: true,
    body: TwoFactorStartRequest,
    response: TwoFactorEnrolment,
    status: 201,
    errors: [400, 403, 409, 429],
  }),
  confirm: defineRoute({
    method: 'POST',
    path: '/two-factor/enrolment/confirm',
    summary: 'Enable two-factor sign-in with a code of the new secret; answers the recovery codes, once',
    tag: 'auth',
    auth: 'user',
    beforeTwoFactorEnrolment: true,
    sessionOnly: true,
    body: TwoFactorConfirmRequest,
    response: RecoveryCodes,
    errors: [400, 403, 409, 429],
  }),
  disable: defineRoute({
    method: 'POST',
    path: '/two-factor/disable',
    summary: "Disable the caller's two-factor sign-in with a current code (or a recovery code)",
    tag: 'auth',
    auth: 'user',
    sessionOnly: true,
    body: TwoFactorCodeRequest,
    response: null,
    errors: [400, 403, 409, 429],
  }),
  reset: defineRoute({
    method: 'DELETE',
    path: '/accounts/:id/two-factor',
    summary: "Reset another account's two-factor sign-in (ADMIN): it signs in with its password alone again",
    tag: 'auth',
    auth: 'admin',
    sessionOnly: true,
    params: IdParams,
    response: null,
    errors: [404, 409],
  }),
  settings: defineRoute({
    method: 'GET',
    path: '/settings/security',
    summary: 'Sign-in security settings (ADMIN)',
    tag: 'auth',
    auth: 'admin',
    sessionOnly: true,
    response: SecuritySettings,
  }),
  updateSettings: defineRoute({
    method: 'PUT',
    path: '/settings/security',
    summary: 'Change sign-in security settings (ADMIN)',
    tag: 'auth',
    auth: 'admin',
    sessionOnly: true,
    body: SecuritySettingsUpdate,
    response: SecuritySettings,
  }),
};
