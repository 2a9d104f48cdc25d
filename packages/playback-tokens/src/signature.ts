import { createHmac, timingSafeEqual, verify } from 'node:crypto';
import type { ReadyKey } from './keyring.js';

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * Whether `token`'s JWS signature is `ready`'s over its first two parts, with node:crypto's synchronous
 * primitives (a third of WebCrypto's cost, and no thread-pool round trip). The caller has already checked
 * that the header's `alg` is one the key was made for; this checks with the key's algorithm only.
 */
export function signatureValid(token: string, ready: ReadyKey): boolean {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) return false;
  const signingInput = Buffer.from(`${parts[0]}.${parts[1]}`, 'ascii');
  const signature = Buffer.from(parts[2] ?? '', 'base64url');
  switch (ready.key.algorithm) {
    case 'HS256': {
      const expected = createHmac('sha256', ready.keyObject).update(signingInput).digest();
      return signature.length === expected.length && timingSafeEqual(signature, expected);
    }
    case 'ES256':
      return (
        signature.length === 64 &&
        verify('sha256', signingInput, { key: ready.keyObject, dsaEncoding: 'ieee-p1363' }, signature)
      );
    case 'Ed25519':
      return signature.length === 64 && verify(null, signingInput, ready.keyObject, signature);
  }
}
