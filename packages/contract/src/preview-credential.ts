import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Preview credentials (`pv1.<expiry, Unix seconds>.<signature>`): the API signs one for a stream with the
 * stream's preview key, the node serving the stream checks it with the same key (it gets the key with the
 * stream's assignment). Nothing is stored: a credential is valid for its stream until it expires.
 * Server-side only (node:crypto): imported as `@streamcloud/contract/preview-credential`.
 */
const PREFIX = 'pv1';

const sign = (key: string, streamId: string, expiresAt: number): string =>
  createHmac('sha256', key).update(`${streamId}.${expiresAt}`).digest('base64url');

/** The stream's preview key, derived from the API's own signing key: one per stream, never shown to users. */
export function previewKeyOf(signingKey: string, streamId: string): string {
  return createHmac('sha256', signingKey).update(`preview:${streamId}`).digest('base64url');
}

/** A credential for `streamId` valid until `expiresAt`. */
export function signPreviewCredential(key: string, streamId: string, expiresAt: Date): string {
  const seconds = Math.floor(expiresAt.getTime() / 1000);
  return `${PREFIX}.${seconds}.${sign(key, streamId, seconds)}`;
}

/** Whether `token` has the form of a preview credential (it is then checked as one, never as a viewer token). */
export function isPreviewCredential(token: string | null): token is string {
  return token?.startsWith(`${PREFIX}.`) ?? false;
}

/** Whether `token` is a credential for `streamId` signed with `key` and not expired at `now`. */
export function verifyPreviewCredential(key: string, streamId: string, token: string, now = new Date()): boolean {
  const [prefix, expiry, signature, ...rest] = token.split('.');
  if (prefix !== PREFIX || !expiry || !signature || rest.length > 0 || !/^\d{1,12}$/.test(expiry)) return false;
  const seconds = Number(expiry);
  if (seconds * 1000 <= now.getTime()) return false;
  const expected = Buffer.from(sign(key, streamId, seconds));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
