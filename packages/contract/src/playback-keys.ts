import { z } from 'zod';
import { Id, IdParams, Timestamp } from './common.js';
import { OutputAccess } from './outputs.js';
import { defineRoute } from './routes.js';

/** Issue 34: an account's keys for signing playback tokens, and the test of a token against an output. */
export const PLAYBACK_KEY_NAME_MAX = 100;
/** Active (not revoked) signing keys an account may hold. */
export const PLAYBACK_KEYS_MAX = 20;
/** Revoked keys still listed, newest first, after the active ones. */
export const PLAYBACK_KEYS_LISTED_MAX = 100;
export const PLAYBACK_TOKEN_MAX = 8192;
/** Revoked token ids an account may hold (a revocation outlives its token by the longest session, 30 days). */
export const PLAYBACK_TOKEN_REVOCATIONS_MAX = 10_000;
/** Revocations listed, newest first. */
export const PLAYBACK_TOKEN_REVOCATIONS_LISTED_MAX = 500;
export const PLAYBACK_TOKEN_ID_MAX = 200;

/** ECDSA P-256 and Ed25519: the customer signs with the private key; HS256: both sides share a secret. */
export const PlaybackKeyAlgorithm = z.enum(['ES256', 'Ed25519', 'HS256'], {
  error: 'Algorithm must be ES256, Ed25519 or HS256',
});
export type PlaybackKeyAlgorithm = z.infer<typeof PlaybackKeyAlgorithm>;

/** The public half of an asymmetric key, as a JWK with its `kid` and `alg`. */
export const PublicJwk = z.object({
  kty: z.string(),
  crv: z.string(),
  x: z.string(),
  y: z.string().optional(),
  kid: z.string(),
  alg: z.string(),
});
export type PublicJwk = z.infer<typeof PublicJwk>;

export const PlaybackKey = z.object({
  id: Id,
  /** The `kid` a token's header names: the key's id. */
  kid: Id,
  accountId: Id,
  name: z.string(),
  algorithm: PlaybackKeyAlgorithm,
  /** ES256 and Ed25519 keys: the public key the nodes verify with (never secret). */
  publicJwk: PublicJwk.nullable(),
  createdAt: Timestamp,
  revokedAt: Timestamp.nullable(),
});
export type PlaybackKey = z.infer<typeof PlaybackKey>;

/**
 * A new key: the only answer carrying what signs tokens. ES256/Ed25519: the private key in PKCS#8 PEM and as
 * a JWK (never stored by Streamcloud); HS256: the secret, base64url (stored sealed, never shown again).
 */
export const PlaybackKeyCreated = PlaybackKey.extend({
  privateKeyPem: z.string().nullable(),
  privateJwk: PublicJwk.extend({ d: z.string() }).nullable(),
  secret: z.string().nullable(),
});
export type PlaybackKeyCreated = z.infer<typeof PlaybackKeyCreated>;

export const PlaybackKeyCreate = z.strictObject({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(PLAYBACK_KEY_NAME_MAX, `Name must be at most ${PLAYBACK_KEY_NAME_MAX} characters`),
  algorithm: PlaybackKeyAlgorithm.default('ES256'),
});
export type PlaybackKeyCreateInput = z.input<typeof PlaybackKeyCreate>;
export type PlaybackKeyCreate = z.output<typeof PlaybackKeyCreate>;

export const PlaybackKeyListQuery = z.strictObject({
  /** ADMIN: one account's keys (every account's when absent); a USER may name only its own. */
  account: Id.optional(),
});

const COUNTRY = /^[A-Za-z]{2}$/;

/** A token to test against an output, with the viewer it would come from (each part optional). */
export const PlaybackTokenInspect = z.strictObject({
  token: z
    .string({ error: 'Token is required' })
    .trim()
    .min(1, 'Token is required')
    .max(PLAYBACK_TOKEN_MAX, `Token must be at most ${PLAYBACK_TOKEN_MAX} characters`),
  outputId: Id,
  /** The viewer's address (a test address). */
  address: z.union([z.ipv4(), z.ipv6()], { error: 'Address must be an IPv4 or IPv6 address' }).optional(),
  /** The viewer's country, ISO 3166-1 alpha-2. */
  country: z
    .string()
    .regex(COUNTRY, 'Country must be a two-letter ISO code such as FR')
    .transform((code) => code.toUpperCase())
    .optional(),
  /** The page the player is on. */
  origin: z
    .url({ protocol: /^https?$/, error: 'Origin must be an http(s) address such as https://shop.example' })
    .optional(),
  /** When the viewer would play (now when absent). */
  at: Timestamp.optional(),
  /** Sessions of this token already playing. */
  activeSessions: z.number().int().min(0, 'Active sessions must be 0 or more').max(100_000).optional(),
});
export type PlaybackTokenInspectInput = z.input<typeof PlaybackTokenInspect>;
export type PlaybackTokenInspect = z.output<typeof PlaybackTokenInspect>;

export const PlaybackTokenInspection = z.object({
  /** The token's header and claims as written (unverified), null when it is not a JWT. */
  header: z.record(z.string(), z.unknown()).nullable(),
  claims: z.record(z.string(), z.unknown()).nullable(),
  /** Whether the output would accept it from that viewer, and if not why (the nodes' own verifier). */
  accepted: z.boolean(),
  /** The machine reason of a refusal (`expired`, `wrong_country`, ...), null when accepted. */
  reason: z.string().nullable(),
  /** What a player shows. */
  message: z.string(),
  detail: z.string().nullable(),
  /** When the session would have to end (the token's `maxSessionSeconds`), null without a cap. */
  sessionEndsAt: Timestamp.nullable(),
  /** The output and its access policy: only a Signed output takes playback tokens (docs/sell-access.md). */
  output: z.object({ id: Id, streamId: Id, access: OutputAccess }),
});
export type PlaybackTokenInspection = z.infer<typeof PlaybackTokenInspection>;

/** Revokes one token by its `jti` (every token of the account's keys carrying it). */
export const PlaybackTokenRevoke = z.strictObject({
  jti: z
    .string({ error: 'Token id (jti) is required' })
    .min(1, 'Token id (jti) is required')
    .max(PLAYBACK_TOKEN_ID_MAX, `Token id (jti) must be at most ${PLAYBACK_TOKEN_ID_MAX} characters`),
});
export type PlaybackTokenRevoke = z.infer<typeof PlaybackTokenRevoke>;

export const PlaybackTokenRevocation = z.object({
  jti: z.string(),
  accountId: Id,
  revokedAt: Timestamp,
});
export type PlaybackTokenRevocation = z.infer<typeof PlaybackTokenRevocation>;

export const playbackKeyRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/playback-keys',
    summary: 'Playback signing keys, active then revoked, newest first (never their private key or secret)',
    tag: 'playback-keys',
    auth: 'user',
    query: PlaybackKeyListQuery,
    response: z.array(PlaybackKey),
  }),
  create: defineRoute({
    method: 'POST',
    path: '/playback-keys',
    summary: `Create a playback signing key (at most ${PLAYBACK_KEYS_MAX} active); the answer is the only time its private key or secret is shown`,
    tag: 'playback-keys',
    auth: 'user',
    revealsSecret: true,
    body: PlaybackKeyCreate,
    response: PlaybackKeyCreated,
    status: 201,
    errors: [409],
  }),
  revoke: defineRoute({
    method: 'DELETE',
    path: '/playback-keys/:id',
    summary: 'Revoke a playback signing key: tokens it signed are refused',
    tag: 'playback-keys',
    auth: 'user',
    params: IdParams,
    response: null,
    errors: [404, 409],
  }),
  revokedTokens: defineRoute({
    method: 'GET',
    path: '/playback-tokens/revocations',
    summary: `Revoked playback token ids, newest first (at most ${PLAYBACK_TOKEN_REVOCATIONS_LISTED_MAX})`,
    tag: 'playback-keys',
    auth: 'user',
    query: PlaybackKeyListQuery,
    response: z.array(PlaybackTokenRevocation),
  }),
  revokeToken: defineRoute({
    method: 'POST',
    path: '/playback-tokens/revocations',
    summary:
      "Revoke a playback token by its jti: the account's outputs refuse it (the nodes, once they enforce tokens)",
    tag: 'playback-keys',
    auth: 'user',
    body: PlaybackTokenRevoke,
    response: PlaybackTokenRevocation,
    status: 201,
    errors: [409],
  }),
  inspect: defineRoute({
    method: 'POST',
    path: '/playback-tokens/inspect',
    summary: "A token's claims, and whether an output would accept it from a given viewer and why",
    tag: 'playback-keys',
    auth: 'user',
    body: PlaybackTokenInspect,
    response: PlaybackTokenInspection,
    errors: [404],
  }),
};
