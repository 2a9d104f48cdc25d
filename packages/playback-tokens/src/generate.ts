import { exportJWK, exportPKCS8, generateKeyPair, type JWK } from 'jose';
import type { SigningAlgorithm } from './keyring.js';

/** Bytes of a new HMAC secret: 256 bits, as HS256 asks. */
export const HMAC_SECRET_BYTES = 32;

/** A new key's material: what its owner keeps (private key or secret) and what verifiers keep. */
export type GeneratedKey =
  | { algorithm: 'ES256' | 'Ed25519'; publicJwk: JWK; privateJwk: JWK; privatePem: string }
  | { algorithm: 'HS256'; secret: Uint8Array };

/** Makes a signing key: a key pair for ES256 and Ed25519, 32 random bytes for HS256. */
export async function generateSigningKey(algorithm: SigningAlgorithm): Promise<GeneratedKey> {
  if (algorithm === 'HS256') {
    return { algorithm, secret: crypto.getRandomValues(new Uint8Array(HMAC_SECRET_BYTES)) };
  }
  const { publicKey, privateKey } = await generateKeyPair(algorithm, { extractable: true });
  return {
    algorithm,
    publicJwk: await exportJWK(publicKey),
    privateJwk: await exportJWK(privateKey),
    privatePem: await exportPKCS8(privateKey),
  };
}
