import { sign } from 'node:crypto';

/** An ES256 playback signing key as the API shows it once: its id (the tokens' `kid`) and its private key. */
export interface MintingKey {
  kid: string;
  privateKeyPem: string;
}

/**
 * A playback token signed with an ES256 key, as a customer's backend mints one (docs/sell-access.md's script, in
 * node:crypto only): valid for 10 minutes unless `claims` say otherwise. For tests and benchmarks.
 */
export function mintPlaybackToken(key: MintingKey, claims: Record<string, unknown>, kid = key.kid): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signingInput = `${part({ alg: 'ES256', kid })}.${part({ exp: Math.floor(Date.now() / 1000) + 600, ...claims })}`;
  const signature = sign('sha256', Buffer.from(signingInput), { key: key.privateKeyPem, dsaEncoding: 'ieee-p1363' });
  return `${signingInput}.${signature.toString('base64url')}`;
}
