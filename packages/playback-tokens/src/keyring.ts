import { createPublicKey, createSecretKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { JWK } from 'jose';

/** What a signing key signs with: ECDSA P-256, Ed25519, or HMAC-SHA-256 with a shared secret. */
export type SigningAlgorithm = 'ES256' | 'Ed25519' | 'HS256';

export const SIGNING_ALGORITHMS: readonly SigningAlgorithm[] = ['ES256', 'Ed25519', 'HS256'];

/** The JWS `alg` header values a key of each algorithm verifies: never `none`, never another family. */
export const HEADER_ALGORITHMS: Record<SigningAlgorithm, string[]> = {
  ES256: ['ES256'],
  Ed25519: ['EdDSA', 'Ed25519'],
  HS256: ['HS256'],
};

/** A key as the verifier is given it: the public JWK of an asymmetric key, or the secret of an HMAC one. */
export type VerificationKey =
  | { kid: string; algorithm: 'ES256' | 'Ed25519'; publicJwk: JWK; revoked?: boolean }
  | { kid: string; algorithm: 'HS256'; secret: Uint8Array; revoked?: boolean };

/** A key ready to verify with (imported once, then reused). */
export interface ReadyKey {
  key: VerificationKey;
  keyObject: KeyObject;
}

/** The key's own type, so a JWK of another curve or family cannot stand for it. */
const KEY_TYPES: Record<'ES256' | 'Ed25519', { type: string; curve?: string }> = {
  ES256: { type: 'ec', curve: 'prime256v1' },
  Ed25519: { type: 'ed25519' },
};

function importKey(key: VerificationKey): KeyObject {
  if (key.algorithm === 'HS256') return createSecretKey(key.secret);
  const { d: _private, ...publicJwk } = key.publicJwk;
  const keyObject = createPublicKey({ key: publicJwk as JsonWebKey, format: 'jwk' });
  const expected = KEY_TYPES[key.algorithm];
  if (
    keyObject.asymmetricKeyType !== expected.type ||
    (expected.curve && keyObject.asymmetricKeyDetails?.namedCurve !== expected.curve)
  ) {
    throw new Error(`The key is not an ${key.algorithm} key`);
  }
  return keyObject;
}

/**
 * The keys tokens may be signed with, by `kid`, each imported the first time it is used and kept (the warm
 * cache a node verifies from). Revoked keys stay listed so their tokens are refused as revoked, not unknown.
 */
export class PlaybackKeyring {
  private readonly keys = new Map<string, VerificationKey>();
  private readonly ready = new Map<string, KeyObject>();

  constructor(keys: Iterable<VerificationKey> = []) {
    for (const key of keys) this.set(key);
  }

  /** Adds or replaces a key (a replaced key is imported again). */
  set(key: VerificationKey): void {
    this.keys.set(key.kid, key);
    this.ready.delete(key.kid);
  }

  revoke(kid: string): void {
    const key = this.keys.get(kid);
    if (key) this.keys.set(kid, { ...key, revoked: true });
  }

  delete(kid: string): void {
    this.keys.delete(kid);
    this.ready.delete(kid);
  }

  get size(): number {
    return this.keys.size;
  }

  get(kid: string): VerificationKey | undefined {
    return this.keys.get(kid);
  }

  /** The key and its imported form; undefined for an unknown kid. Throws when the stored key cannot be imported. */
  prepare(kid: string): ReadyKey | undefined {
    const key = this.keys.get(kid);
    if (!key) return undefined;
    let keyObject = this.ready.get(kid);
    if (!keyObject) {
      keyObject = importKey(key);
      this.ready.set(kid, keyObject);
    }
    return { key, keyObject };
  }
}
