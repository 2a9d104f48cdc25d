import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Short-lived credentials the control plane signs and a media node checks with a key it got from the control
 * plane (`<prefix>.<fields…>.<expiry, Unix seconds>.<signature>`, HMAC-SHA256 over the stream id, the fields
 * and the expiry). Nothing is stored: a credential is valid for its stream until it expires. Preview
 * credentials and edge pull credentials are two schemes of it. Server-side only (node:crypto).
 */
export interface CredentialScheme {
  /** The stream's key of this scheme, derived from the API's own signing key: one per stream, never shown to users. */
  keyOf(signingKey: string, streamId: string): string;
  sign(key: string, streamId: string, fields: readonly string[], expiresAt: Date): string;
  /** Whether `token` has this scheme's form (it is then checked as one, never as another kind of token). */
  matches(token: string | null): token is string;
  /** The credential's fields when it is a valid one for `streamId`, signed with `key`, not expired at `now`; else null. */
  verify(key: string, streamId: string, token: string, now?: Date): string[] | null;
}

const FIELD = /^[\w-]{1,64}$/;

export function credentialScheme(prefix: string, purpose: string, fieldCount: number): CredentialScheme {
  const signature = (key: string, streamId: string, fields: readonly string[], seconds: number) =>
    createHmac('sha256', key)
      .update([streamId, ...fields, seconds].join('.'))
      .digest('base64url');
  return {
    keyOf: (signingKey, streamId) =>
      createHmac('sha256', signingKey).update(`${purpose}:${streamId}`).digest('base64url'),
    sign(key, streamId, fields, expiresAt) {
      if (fields.length !== fieldCount || !fields.every((field) => FIELD.test(field)))
        throw new Error(`a ${prefix} credential takes ${fieldCount} word fields`);
      const seconds = Math.floor(expiresAt.getTime() / 1000);
      return [prefix, ...fields, seconds, signature(key, streamId, fields, seconds)].join('.');
    },
    matches: (token): token is string => token?.startsWith(`${prefix}.`) ?? false,
    verify(key, streamId, token, now = new Date()) {
      const parts = token.split('.');
      if (parts.length !== fieldCount + 3 || parts[0] !== prefix) return null;
      const fields = parts.slice(1, 1 + fieldCount);
      const [expiry, given] = parts.slice(1 + fieldCount) as [string, string];
      if (!fields.every((field) => FIELD.test(field)) || !/^\d{1,12}$/.test(expiry)) return null;
      const seconds = Number(expiry);
      if (seconds * 1000 <= now.getTime()) return null;
      const expected = Buffer.from(signature(key, streamId, fields, seconds));
      const actual = Buffer.from(given);
      return expected.length === actual.length && timingSafeEqual(expected, actual) ? fields : null;
    },
  };
}
