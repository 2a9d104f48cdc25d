import { credentialScheme } from './signed-credential.js';

/**
 * Preview credentials (`pv1.<expiry, Unix seconds>.<signature>`): the API signs one for a stream with the
 * stream's preview key, the node serving the stream checks it with the same key (it gets the key with the
 * stream's assignment). Nothing is stored: a credential is valid for its stream until it expires.
 * Server-side only (node:crypto): imported as `@streamcloud/contract/preview-credential`.
 */
const preview = credentialScheme('pv1', 'preview', 0);

/** The stream's preview key, derived from the API's own signing key: one per stream, never shown to users. */
export const previewKeyOf = (signingKey: string, streamId: string): string => preview.keyOf(signingKey, streamId);

/** A credential for `streamId` valid until `expiresAt`. */
export const signPreviewCredential = (key: string, streamId: string, expiresAt: Date): string =>
  preview.sign(key, streamId, [], expiresAt);

/** Whether `token` has the form of a preview credential (it is then checked as one, never as a viewer token). */
export const isPreviewCredential = (token: string | null): token is string => preview.matches(token);

/** Whether `token` is a credential for `streamId` signed with `key` and not expired at `now`. */
export const verifyPreviewCredential = (key: string, streamId: string, token: string, now = new Date()): boolean =>
  preview.verify(key, streamId, token, now) !== null;
