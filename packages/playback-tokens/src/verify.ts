import { decodeJwt, decodeProtectedHeader, type ProtectedHeaderParameters } from 'jose';
import { checkClaims, type PlaybackClaims } from './claims.js';
import { HEADER_ALGORITHMS, type PlaybackKeyring, type ReadyKey } from './keyring.js';
import { REFUSALS, type RefusalReason } from './reasons.js';
import { signatureValid } from './signature.js';
import { addressAllowed, originAllowed, originOf } from './viewer.js';

/** Longest token read: a few kilobytes hold any sensible list of addresses, countries and origins. */
export const MAX_TOKEN_LENGTH = 8192;

/** What is being played: a token's `sub` names the output or its stream. */
export interface PlaybackTarget {
  outputId: string;
  streamId: string;
}

/** Who asks to play, as the node (or the test page) sees them. */
export interface ViewerContext {
  now: Date;
  /** The viewer's IP address. */
  address?: string | null;
  /**
   * ISO 3166-1 alpha-2 code of the viewer's country (a GeoIP lookup), null when unknown; or the lookup, made
   * only for a token that restricts countries.
   */
  country?: string | null | (() => string | null);
  /** The page's Origin header, or else its Referer: browsers only. */
  origin?: string | null;
  referrer?: string | null;
  /** When the session this request belongs to started; absent for a new session. */
  sessionStartedAt?: Date;
  /** Other sessions of this token playing now (not counting this one); or how to count them, by its claims. */
  activeSessions?: number | ((claims: PlaybackClaims) => number);
}

/**
 * Tokens whose signature and claims' shape were checked, by token (a node's warm cache: each request of a
 * session checks only the claims against the viewer and the revocations, a few microseconds). Bounded: past
 * `limit` the oldest goes. A key is never replaced under its kid, so an entry stays true while its key is
 * listed; a revoked or removed key is checked at every use.
 */
export class VerifiedTokens {
  private readonly entries = new Map<string, { kid: string; claims: PlaybackClaims }>();

  constructor(private readonly limit = 10_000) {}

  get(token: string): { kid: string; claims: PlaybackClaims } | undefined {
    return this.entries.get(token);
  }

  set(token: string, kid: string, claims: PlaybackClaims): void {
    if (this.entries.size >= this.limit) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(token, { kid, claims });
  }

  get size(): number {
    return this.entries.size;
  }
}

export interface VerifyOptions {
  keys: PlaybackKeyring;
  /** Tokens already verified (signature and shape): a hit skips both. */
  verified?: VerifiedTokens;
  /** Revoked token ids (`jti`). */
  revokedTokenIds?: ReadonlySet<string>;
  target: PlaybackTarget;
  viewer: ViewerContext;
  /** Clock skew allowed on `nbf` and `exp`, seconds (0 by default). */
  leewaySeconds?: number;
}

export type Verdict =
  | {
      ok: true;
      kid: string;
      claims: PlaybackClaims;
      /** When this session must end (`maxSessionSeconds` after its start), or null. */
      sessionEndsAt: Date | null;
    }
  | {
      ok: false;
      reason: RefusalReason;
      /** The text a player shows. */
      message: string;
      /** What is wrong in more detail, for the test page and logs (never secret). */
      detail?: string;
    };

const refuse = (reason: RefusalReason, detail?: string): Verdict => ({
  ok: false,
  reason,
  message: REFUSALS[reason],
  ...(detail ? { detail } : {}),
});

/** The header and claims of a token as written, unverified (for showing them), or null when it is not a JWT. */
export function readToken(
  token: string,
): { header: ProtectedHeaderParameters; payload: Record<string, unknown> } | null {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  try {
    return { header: decodeProtectedHeader(token), payload: decodeJwt(token) };
  } catch {
    return null;
  }
}

/**
 * Whether a viewer may play `target` with `token`: the signature with the key its `kid` names (and only that
 * key's algorithm), then revocation, then each claim against the target and the viewer, in that order.
 */
export function verifyPlaybackToken(token: string, options: VerifyOptions): Verdict {
  const cached = options.verified?.get(token);
  if (cached) {
    const key = options.keys.get(cached.kid);
    if (!key) return refuse('unknown_key', `No key has the id ${JSON.stringify(cached.kid.slice(0, 100))}`);
    if (key.revoked) return refuse('key_revoked');
    return judge(cached.kid, cached.claims, options);
  }
  const read = readToken(token);
  if (!read) return refuse('malformed');
  const { kid, alg, crit } = read.header;
  // No extension is understood, so none may be critical (RFC 7515 4.1.11), `b64: false` among them.
  if (crit !== undefined) return refuse('malformed', 'The header names critical extensions');
  if (typeof kid !== 'string' || kid.length === 0) return refuse('malformed', 'The header has no kid');
  const ready = prepared(options.keys, kid);
  if (!ready) return refuse('unknown_key', `No key has the id ${JSON.stringify(kid.slice(0, 100))}`);
  if (ready.key.revoked) return refuse('key_revoked');
  const algorithms = HEADER_ALGORITHMS[ready.key.algorithm];
  if (typeof alg !== 'string' || !algorithms.includes(alg)) {
    return refuse('bad_signature', `The key signs with ${ready.key.algorithm}, not ${String(alg)}`);
  }
  if (!signatureValid(token, ready)) return refuse('bad_signature');
  const checked = checkClaims(read.payload);
  if (!checked.ok) return refuse('invalid_claims', `${checked.claim} ${checked.rule}`);
  options.verified?.set(token, kid, checked.claims);
  return judge(kid, checked.claims, options);
}

/** The key named, or undefined when it is unknown or its stored material cannot be imported. */
function prepared(keys: PlaybackKeyring, kid: string): ReadyKey | undefined {
  try {
    return keys.prepare(kid);
  } catch {
    return undefined;
  }
}

function judge(kid: string, claims: PlaybackClaims, options: VerifyOptions): Verdict {
  const { target, viewer } = options;
  if (claims.jti !== undefined && options.revokedTokenIds?.has(claims.jti)) return refuse('token_revoked');
  if (claims.sub !== target.outputId && claims.sub !== target.streamId) return refuse('wrong_output');
  const leeway = (options.leewaySeconds ?? 0) * 1000;
  const now = viewer.now.getTime();
  // A session started while the token was valid keeps playing after its expiry (no cut mid-view).
  const startedAt = viewer.sessionStartedAt?.getTime() ?? now;
  if (claims.nbf !== undefined && startedAt + leeway < claims.nbf * 1000) return refuse('not_yet_valid');
  if (startedAt - leeway >= claims.exp * 1000) return refuse('expired');
  if (claims.ips && !addressAllowed(viewer.address, claims.ips)) return refuse('wrong_address');
  if (claims.countries) {
    const country = typeof viewer.country === 'function' ? viewer.country() : viewer.country;
    if (!(country && claims.countries.includes(country.toUpperCase()))) return refuse('wrong_country');
  }
  if (claims.origins && !originAllowed(originOf(viewer.origin) ?? originOf(viewer.referrer), claims.origins)) {
    return refuse('wrong_origin');
  }
  if (claims.maxSessions !== undefined) {
    const active = typeof viewer.activeSessions === 'function' ? viewer.activeSessions(claims) : viewer.activeSessions;
    if ((active ?? 0) >= claims.maxSessions) return refuse('too_many_sessions');
  }
  const sessionEndsAt = claims.maxSessionSeconds === undefined ? null : startedAt + claims.maxSessionSeconds * 1000;
  if (sessionEndsAt !== null && now >= sessionEndsAt) return refuse('session_over');
  return { ok: true, kid, claims, sessionEndsAt: sessionEndsAt === null ? null : new Date(sessionEndsAt) };
}
