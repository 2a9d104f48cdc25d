import { createHash, createHmac } from 'node:crypto';
import { credentialScheme } from './signed-credential.js';

/**
 * The control plane's credential on a node's control API (docs/node-control-api.md): every call carries
 * `Authorization: Bearer nc1.<expiry, Unix seconds>.<signature>`, an HMAC-SHA256 over the call's method, path and
 * body digest and the expiry, keyed with a key derived from the node token's SHA-256 — which the control plane
 * stores, and the node computes from its raw token. So only the control plane (or the node itself) can sign, a
 * credential is good for one node (each has its own token), one call (method, path, body) and a short while
 * (NODE_CONTROL_TTL_SECONDS), and reissuing the node token ends it. Server-side only (node:crypto).
 */
const control = credentialScheme('nc1', 'node-control', 0);

/** How long a signed call is valid: enough for a 3 s call between machines whose clocks differ a little. */
export const NODE_CONTROL_TTL_SECONDS = 120;
/** A credential expiring later than this from the node's now is refused: nobody signs one that long. */
const MAX_AHEAD_SECONDS = NODE_CONTROL_TTL_SECONDS + 180;

/** The node token's SHA-256 (hex), as the control plane stores it. */
export const nodeTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The node's control key, from its token's hash: the control plane's and the node's are the same. */
export const nodeControlKeyOf = (tokenHash: string): string =>
  createHmac('sha256', tokenHash).update('node-control-key').digest('base64url');

/** What a signature covers: the method, the path (with its query) and the body's SHA-256. */
function subject(method: string, path: string, body: string | Uint8Array): string {
  return `${method.toUpperCase()} ${path} ${createHash('sha256').update(body).digest('base64url')}`;
}

/** The credential for one call (`path` with its query, `body` as sent: '' when none), valid NODE_CONTROL_TTL_SECONDS. */
export function signNodeControl(
  key: string,
  call: { method: string; path: string; body?: string | Uint8Array },
  now = new Date(),
): string {
  const expiresAt = new Date(now.getTime() + NODE_CONTROL_TTL_SECONDS * 1000);
  return control.sign(key, subject(call.method, call.path, call.body ?? ''), [], expiresAt);
}

/** Whether `token` is a valid credential of this node's key for this very call, unexpired and not signed far ahead. */
export function verifyNodeControl(
  key: string,
  call: { method: string; path: string; body?: string | Uint8Array },
  token: string | null,
  now = new Date(),
): boolean {
  if (!token || !control.matches(token)) return false;
  const expiry = Number(token.split('.')[1]);
  if (!Number.isFinite(expiry) || expiry * 1000 > now.getTime() + MAX_AHEAD_SECONDS * 1000) return false;
  return control.verify(key, subject(call.method, call.path, call.body ?? ''), token, now) !== null;
}

/** The bearer token of an `Authorization` header, or null. */
export function bearerOf(header: string | undefined): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? null;
}
