/** Why a playback token is refused: a machine reason for logs and players, a text a player can show. */
export const REFUSALS = {
  malformed: 'The token is not a valid playback token',
  unknown_key: 'The token was signed with a key this account does not have',
  key_revoked: "The token's signing key has been revoked",
  bad_signature: "The token's signature is not valid",
  invalid_claims: "The token's claims are not valid",
  token_revoked: 'The token has been revoked',
  wrong_output: 'The token is not for this video',
  not_yet_valid: 'The token is not valid yet',
  expired: 'The token expired',
  wrong_address: 'Not allowed from your network address',
  wrong_country: 'Not allowed from your country',
  wrong_origin: 'Not allowed on this website',
  too_many_sessions: 'Too many sessions for this token',
  session_over: 'The viewing time this token allows is over',
} as const;

export type RefusalReason = keyof typeof REFUSALS;

export const REFUSAL_REASONS = Object.keys(REFUSALS) as RefusalReason[];
