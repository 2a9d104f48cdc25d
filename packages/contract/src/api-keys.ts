import { z } from 'zod';
import { Id, IdParams, Timestamp } from './common.js';
import { defineRoute } from './routes.js';

/** Every API key starts with it, so a leaked one is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'sck_';
export const API_KEY_NAME_MAX = 100;

/** `read`: GET requests only; `write`: everything its account may do, but managing credentials. */
export const ApiKeyScope = z.enum(['read', 'write']);
export type ApiKeyScope = z.infer<typeof ApiKeyScope>;

export const ApiKey = z.object({
  id: Id,
  name: z.string(),
  scope: ApiKeyScope,
  /** The key's first characters (`sck_` and 6 more), to tell keys apart. */
  prefix: z.string(),
  createdAt: Timestamp,
  expiresAt: Timestamp.nullable(),
  lastUsedAt: Timestamp.nullable(),
  lastUsedAddress: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

/** A new key: the only answer that carries the key itself. */
export const ApiKeyCreated = ApiKey.extend({ key: z.string() });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreated>;

export const ApiKeyCreate = z.strictObject({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(API_KEY_NAME_MAX, `Name must be at most ${API_KEY_NAME_MAX} characters`),
  scope: ApiKeyScope.default('read'),
  /** When the key stops working; never when absent or null. */
  expiresAt: Timestamp.refine((value) => Date.parse(value) > Date.now(), 'Expiry must be in the future')
    .nullable()
    .optional(),
});
export type ApiKeyCreateInput = z.input<typeof ApiKeyCreate>;
export type ApiKeyCreate = z.output<typeof ApiKeyCreate>;

export const apiKeyRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api-keys',
    summary: "The caller's API keys, newest first (never the keys themselves)",
    tag: 'api-keys',
    auth: 'user',
    beforeTwoFactorEnrolment: true,
    response: z.array(ApiKey),
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api-keys',
    summary: 'Create an API key for the caller; the answer is the only time the key is shown (not with an API key)',
    tag: 'api-keys',
    auth: 'user',
    sessionOnly: true,
    body: ApiKeyCreate,
    response: ApiKeyCreated,
    status: 201,
    errors: [403],
  }),
  revoke: defineRoute({
    method: 'DELETE',
    path: '/api-keys/:id',
    summary: 'Revoke an API key (its owner, or ADMIN): refused from the next request on',
    tag: 'api-keys',
    auth: 'user',
    params: IdParams,
    response: null,
    errors: [404],
  }),
};
