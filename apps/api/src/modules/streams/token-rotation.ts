import { randomBytes } from 'node:crypto';
import type { PreviousAccessToken, RotatedAccessToken } from '@streamcloud/contract';
import type { TokenRotation } from './streams.repository.js';
import type { TokenRotationColumns } from './streams.table.js';

/** A rotation of a stream that has no token to rotate. */
export const PUBLIC_STREAM_NO_TOKEN = 'This stream is Public: it has no access token to rotate';
/** A rotation of an output that has no viewer token to rotate. */
export const PUBLIC_OUTPUT_NO_TOKEN =
  'This output is public (its stream is not Private): it has no viewer token to rotate';

/** A new access token, a stream's ingest token or an output's viewer token: 24 random bytes, base64url. */
export const newAccessToken = () => randomBytes(24).toString('base64url');

/** A rotation to a new token at `now`: the token replaced is taken for `overlapMinutes` more (0: not at all). */
export function tokenRotation(now: Date, overlapMinutes: number): TokenRotation {
  const overlapMs = Math.round(overlapMinutes * 60_000);
  return {
    token: newAccessToken(),
    at: now,
    previousExpiresAt: overlapMs > 0 ? new Date(now.getTime() + overlapMs) : null,
  };
}

/** The answer of a rotation: the new token, shown to the caller this once with its window. */
export const rotatedAnswer = (rotation: TokenRotation): RotatedAccessToken => ({
  accessToken: rotation.token,
  rotatedAt: rotation.at.toISOString(),
  previousValidUntil: rotation.previousExpiresAt?.toISOString() ?? null,
});

/**
 * The replaced token as a node is given it, with the window's end, until the next rotation replaces it. The
 * node judges the end by its own clock: it refuses the token to new pushes and players from then on, and still
 * takes it for an HLS session admitted before (whose requests come on after the window), so the token must stay
 * on the node past the window's end.
 */
export function previousTokenOf(row: TokenRotationColumns): PreviousAccessToken {
  const { previous_access_token: token, previous_access_token_expires_at: expiresAt } = row;
  return token && expiresAt ? { token, expiresAt: expiresAt.toISOString() } : null;
}
