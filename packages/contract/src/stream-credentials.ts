import { z } from 'zod';
import { Timestamp } from './common.js';

// The secrets a stream's owner asks for beside the stream: the console's preview credential and the rotation of
// a stream's ingest token or an output's viewer token (the routes are in streams.ts, `streamRoutes`).

/**
 * A short-lived playback credential for the console's preview of one stream: any of the stream's outputs
 * takes it (`Authorization: Bearer` on WHEP, `?token=` on HLS) in place of the output's viewer token, and
 * the node reports what it plays as a preview session, not a viewer.
 */
export const PreviewCredential = z.object({ token: z.string(), expiresAt: Timestamp });
export type PreviewCredential = z.infer<typeof PreviewCredential>;
/** How long a preview credential is valid; the console asks for a new one before it expires. */
export const PREVIEW_CREDENTIAL_TTL_SECONDS = 600;

/** How long the token a rotation replaces stays valid beside the new one, in minutes. */
export const TOKEN_OVERLAP_MAX_MINUTES = 1440;
export const TOKEN_OVERLAP_DEFAULT_MINUTES = 10;

/**
 * A rotation of a stream's ingest token or an output's viewer token. Fractions of a minute are allowed (a
 * rule as simple as whole minutes, and what lets a test watch a window end in seconds).
 */
export const AccessTokenRotate = z.strictObject({
  overlapMinutes: z
    .number({ error: 'Overlap must be a number of minutes' })
    .min(0, 'Overlap must be at least 0 minutes')
    .max(TOKEN_OVERLAP_MAX_MINUTES, `Overlap must be at most ${TOKEN_OVERLAP_MAX_MINUTES} minutes (24 hours)`)
    .default(TOKEN_OVERLAP_DEFAULT_MINUTES),
});
export type AccessTokenRotate = z.output<typeof AccessTokenRotate>;

/** The new token, answered once by the rotation (the stream and the output still show the current one). */
export const RotatedAccessToken = z.object({
  accessToken: z.string(),
  rotatedAt: Timestamp,
  /** Until when the replaced token is still taken; null with an overlap of 0 (it stopped at once). */
  previousValidUntil: Timestamp.nullable(),
});
export type RotatedAccessToken = z.infer<typeof RotatedAccessToken>;
