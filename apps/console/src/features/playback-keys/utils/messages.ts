/** The texts of the playback signing keys screen. */
export const PLAYBACK_KEY_TEXTS = {
  intro:
    'Your own backend signs playback tokens with these keys, without calling Streamcloud; the media nodes check them with the public key (or the shared secret).',
  revokeTitle: 'Revoke playback signing key',
  loadingFailed: 'The playback signing keys could not be loaded.',
  none: 'No playback signing keys yet.',
  createFailed: 'The playback signing key could not be created.',
  revokeQuestion: (name: string) =>
    `Revoke the playback signing key "${name}"? Every token it signed is refused from now on.`,
  revoked: 'The playback signing key was revoked.',
  revokeFailed: 'The playback signing key could not be revoked.',
  shownOnce: 'Copy or download it now: it is shown only once and Streamcloud does not keep it.',
  secretShownOnce: 'Copy or download it now: it is shown only once.',
  testFailed: 'The token could not be tested.',
  tokenRevoked: (jti: string) => `Tokens with the id "${jti}" are revoked.`,
  tokenRevokeFailed: 'The token could not be revoked.',
} as const;

/** What each algorithm is, as the create form offers it. */
export const ALGORITHM_LABELS = {
  ES256: 'ES256 (ECDSA P-256, recommended)',
  Ed25519: 'Ed25519 (EdDSA)',
  HS256: 'HS256 (shared secret)',
} as const;
