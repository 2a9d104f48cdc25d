import type { ColumnType } from 'kysely';

/** Migration 0028: declared beside its module and merged into the database's type. */
export interface PlaybackKeysTable {
  id: string;
  account_id: string;
  name: string;
  algorithm: 'ES256' | 'Ed25519' | 'HS256';
  /** ES256/Ed25519: the public JWK (JSON text); null for HS256. */
  public_jwk: string | null;
  /** HS256: the secret, base64url, sealed with the secret box bound to the key's id; null otherwise. */
  sealed_secret: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  revoked_at: Date | null;
}

/** A revoked token id of an account. */
export interface PlaybackTokenRevocationsTable {
  account_id: string;
  jti: string;
  revoked_at: ColumnType<Date, Date | undefined, never>;
}

declare module '../../db/schema.js' {
  interface Database {
    playback_keys: PlaybackKeysTable;
    playback_token_revocations: PlaybackTokenRevocationsTable;
  }
}
