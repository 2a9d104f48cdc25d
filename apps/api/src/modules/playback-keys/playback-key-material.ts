import type { NodeSigning, PlaybackKey, PublicJwk } from '@streamcloud/contract';
import type { VerificationKey } from '@streamcloud/playback-tokens';
import type { SecretBox } from '../../lib/secret-box.js';
import type { PlaybackKeyRow } from './playback-keys.repository.js';

/** What an HS256 secret is sealed bound to: its key, so a sealed secret cannot be moved to another row. */
export const secretContext = (keyId: string) => `playback-key:${keyId}`;

export function toPlaybackKey(row: PlaybackKeyRow): PlaybackKey {
  return {
    id: row.id,
    kid: row.id,
    accountId: row.account_id,
    name: row.name,
    algorithm: row.algorithm,
    publicJwk: row.public_jwk === null ? null : (JSON.parse(row.public_jwk) as PublicJwk),
    createdAt: row.created_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
  };
}

/** A stored key as the verifier takes it: its public JWK, or its secret opened from the box. */
export function toVerificationKey(row: PlaybackKeyRow, secrets: SecretBox): VerificationKey {
  const revoked = row.revoked_at !== null;
  if (row.algorithm === 'HS256') {
    const secret = Buffer.from(secrets.open(row.sealed_secret ?? '', secretContext(row.id)), 'base64url');
    return { kid: row.id, algorithm: 'HS256', secret, revoked };
  }
  return { kid: row.id, algorithm: row.algorithm, publicJwk: JSON.parse(row.public_jwk ?? '{}'), revoked };
}

/** A stored key as a node is given it (NodeSigning): the public JWK, or the opened HS256 secret. */
export function toNodeKey(row: PlaybackKeyRow, secrets: SecretBox): NodeSigning['keys'][number] {
  const hmac = row.algorithm === 'HS256';
  return {
    kid: row.id,
    algorithm: row.algorithm,
    publicJwk: hmac ? null : (JSON.parse(row.public_jwk ?? '{}') as Record<string, unknown>),
    secret: hmac ? secrets.open(row.sealed_secret ?? '', secretContext(row.id)) : null,
    revoked: row.revoked_at !== null,
  };
}
