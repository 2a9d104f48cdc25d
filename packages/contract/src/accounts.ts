import { z } from 'zod';
import { Account, whoAmIRoute } from './account.js';
import { TokenResponse } from './auth.js';
import { IdParams, Role } from './common.js';
import { defineRoute } from './routes.js';

export const USERNAME_MAX = 128;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;

export const AccountCreate = z.strictObject({
  username: z
    .string({ error: 'Username is required' })
    .trim()
    .min(1, 'Username is required')
    .max(USERNAME_MAX, `Username must be at most ${USERNAME_MAX} characters`),
  password: z
    .string({ error: 'Password is required' })
    .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
    .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`),
  role: Role.default('USER'),
  email: z
    .union([z.email('Email must be a valid address').max(254), z.literal('').transform(() => undefined)])
    .optional(),
});
export type AccountCreateInput = z.input<typeof AccountCreate>;
export type AccountCreate = z.output<typeof AccountCreate>;

export const AccountUpdate = z
  .strictObject({
    email: z.union([z.email('Email must be a valid address').max(254), z.null()]).optional(),
    role: Role.optional(),
    password: AccountCreate.shape.password.optional(),
  })
  .refine((value) => Object.keys(value).length > 0, { message: 'Nothing to update' });
export type AccountUpdate = z.output<typeof AccountUpdate>;

export const accountRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/accounts',
    summary: 'List every account (ADMIN)',
    tag: 'accounts',
    auth: 'admin',
    response: z.array(Account),
  }),
  create: defineRoute({
    method: 'POST',
    path: '/accounts',
    summary: 'Create an account (ADMIN)',
    tag: 'accounts',
    auth: 'admin',
    body: AccountCreate,
    response: Account,
    status: 201,
    errors: [400, 409],
  }),
  whoami: whoAmIRoute,
  get: defineRoute({
    method: 'GET',
    path: '/accounts/:id',
    summary: 'One account: ADMIN any, USER only its own (403 otherwise)',
    tag: 'accounts',
    auth: 'user',
    params: IdParams,
    response: Account,
    errors: [403, 404],
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/accounts/:id',
    summary: "Change an account's email, role or password (ADMIN); a change of role revokes its tokens",
    tag: 'accounts',
    auth: 'admin',
    params: IdParams,
    body: AccountUpdate,
    response: Account,
    errors: [404, 409],
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/accounts/:id',
    summary: 'Delete an account and revoke its tokens (ADMIN; not oneself, not the last admin)',
    tag: 'accounts',
    auth: 'admin',
    params: IdParams,
    response: null,
    errors: [404, 409],
  }),
  impersonate: defineRoute({
    method: 'GET',
    path: '/accounts/:id/impersonate',
    summary:
      'Start impersonating an account (ADMIN, not while impersonating, not oneself); the token expires within an hour',
    tag: 'accounts',
    auth: 'user',
    sessionOnly: true,
    params: IdParams,
    response: TokenResponse,
    errors: [403, 404, 409],
  }),
};
