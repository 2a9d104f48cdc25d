import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { NodeSigning } from '@streamcloud/contract';
import {
  PlaybackKeyring,
  type PlaybackTarget,
  REFUSALS,
  type Verdict,
  type VerificationKey,
  VerifiedTokens,
  verifyPlaybackToken,
} from '@streamcloud/playback-tokens';
import type { Logger } from '../log.js';
import type { AssignedStream } from './directory.js';
import type { SignedGrant, ViewerSession } from './types.js';
import type { Viewers } from './viewers.js';

/** Who asks to play, as a protocol front end sees them: one value handed to `Admission.output`. */
export interface ViewerRequest {
  /** The viewer token, preview credential or signed playback token (HLS/RTMP/SRT query, WHEP bearer). */
  token: string | null;
  /** The viewer's IP address. */
  address: string | null;
  /** The page's Origin header, browsers only (HLS, WHEP); RTMP and SRT players send none. */
  origin?: string | null;
  /** The page's Referer header, when it sent no Origin. */
  referrer?: string | null;
  /** The session this request belongs to, when it is one going on (an HLS `sid`): a session started before expiry plays on. */
  sessionId?: string | null;
  /** The request continues a session admitted before (HLS): a rotated-out static token's window end does not cut it. */
  running?: boolean;
}

/** A browser player's request (HLS, WHEP): its page's Origin and Referer come with it. */
export function browserViewer(
  request: IncomingMessage,
  token: string | null,
  address: string | null,
  sessionId: string | null = null,
): ViewerRequest {
  const header = (name: 'origin' | 'referer') => {
    const value = request.headers[name];
    return typeof value === 'string' ? value : null;
  };
  return { token, address, origin: header('origin'), referrer: header('referer'), sessionId };
}

/** What a capped stream-wide token's sessions are counted by, as nodes share it (TokenSessionId). */
export const tokenSessionId = (countedAs: string) =>
  createHash('sha256').update(countedAs).digest('base64url').slice(0, 22);

/** A session of a capped stream-wide token on another node serving the stream (AssignedStream.tokenSessions). */
interface RemoteSession {
  sessionId: string;
  startedAt: number;
}

/** Accounts whose signing material is read at once (a node's first read names every account it serves). */
const SIGNING_READS_AT_ONCE = 8;

/** Told to a viewer admitted before its output became Signed. */
export const SIGNED_ONLY = 'This video now requires a signed playback token';

/** A key as the control plane sends it, as the verifier takes it. */
function toKey(key: NodeSigning['keys'][number]): VerificationKey {
  if (key.algorithm === 'HS256')
    return {
      kid: key.kid,
      algorithm: 'HS256',
      secret: Buffer.from(key.secret ?? '', 'base64url'),
      revoked: key.revoked,
    };
  return {
    kid: key.kid,
    algorithm: key.algorithm,
    publicJwk: (key.publicJwk ?? {}) as Extract<VerificationKey, { publicJwk: unknown }>['publicJwk'],
    revoked: key.revoked,
  };
}

interface Keyring {
  /** The version of the material it was built from (AssignedStream.signing): read again only when that changes. */
  version: string;
  keys: PlaybackKeyring;
  revoked: ReadonlySet<string>;
}

/**
 * Signed outputs' playback tokens (issue 34): the keys and revoked token ids of each account whose Signed outputs
 * are served here (read once per version the assigned streams name: a revocation pushed by the control plane
 * changes the version, and the next read of the streams reads the account's material again), the
 * verification of a viewer's token with `@streamcloud/playback-tokens` (the code the API's token test runs),
 * a warm cache of verified tokens, the count of each token's sessions on this node, and the end of the
 * sessions whose token, key or duration is over. Secrets are never logged: a refusal logs its reason only.
 */
export class SignedPlayback {
  /** By account. */
  private readonly keyrings = new Map<string, Keyring>();
  /** The account of each stream with a Signed output here. */
  private readonly accountOf = new Map<string, string>();
  /** By stream, then by token (TokenSessionId): the sessions of capped stream-wide tokens on its other nodes. */
  private readonly elsewhere = new Map<string, Map<string, RemoteSession[]>>();
  private readonly verified = new VerifiedTokens();

  constructor(
    private readonly viewers: Viewers,
    /** The viewer's country (GeoLite2 on the node), null when unknown: asked only for tokens that restrict countries. */
    private readonly countryOf: (address: string | null) => string | null,
    private readonly log: Logger | null = null,
    /** Reads an account's signing material from the control plane (GET /node/playback-signing/:id). */
    private readonly readSigning: ((accountId: string) => Promise<NodeSigning>) | null = null,
  ) {}

  /**
   * Before the assigned streams are applied: reads the signing material of each account they name at a version
   * not held here. A failed read keeps what was held (the next read of the streams tries again).
   */
  async load(assignedStreams: readonly AssignedStream[]): Promise<void> {
    const readSigning = this.readSigning;
    if (!readSigning) return;
    const stale = new Set<string>();
    for (const { signing } of assignedStreams)
      if (signing && this.keyrings.get(signing.accountId)?.version !== signing.version) stale.add(signing.accountId);
    const accounts = [...stale];
    for (let i = 0; i < accounts.length; i += SIGNING_READS_AT_ONCE) {
      await Promise.all(
        accounts.slice(i, i + SIGNING_READS_AT_ONCE).map(async (accountId) => {
          try {
            const material = await readSigning(accountId);
            this.keyrings.set(accountId, {
              version: material.version,
              keys: new PlaybackKeyring(material.keys.map(toKey)),
              revoked: new Set(material.revokedTokenIds),
            });
          } catch (error) {
            this.log?.error(`reading the playback signing keys of account ${accountId} failed: ${String(error)}`);
          }
        }),
      );
    }
  }

  /** The assigned streams were applied: which account verifies each stream's tokens; accounts no longer served go. */
  update(assignedStreams: readonly AssignedStream[]): void {
    this.accountOf.clear();
    this.elsewhere.clear();
    for (const assigned of assignedStreams) {
      if (assigned.signing) this.accountOf.set(assigned.id, assigned.signing.accountId);
      const byToken = new Map<string, RemoteSession[]>();
      for (const { tokenId, sessionId, startedAt } of assigned.tokenSessions ?? []) {
        const sessions = byToken.get(tokenId) ?? [];
        sessions.push({ sessionId, startedAt: Date.parse(startedAt) });
        byToken.set(tokenId, sessions);
      }
      if (byToken.size > 0) this.elsewhere.set(assigned.id, byToken);
    }
    const served = new Set(this.accountOf.values());
    for (const accountId of this.keyrings.keys()) if (!served.has(accountId)) this.keyrings.delete(accountId);
  }

  private keyringOf(streamId: string): Keyring | undefined {
    const accountId = this.accountOf.get(streamId);
    return accountId === undefined ? undefined : this.keyrings.get(accountId);
  }

  /** Whether `viewer` may play `target` (an output of `streamId`) with its token, and what the grant is. */
  verify(
    streamId: string,
    target: PlaybackTarget,
    viewer: ViewerRequest,
    now = new Date(),
  ): { ok: true; grant: SignedGrant } | Extract<Verdict, { ok: false }> {
    const token = viewer.token ?? '';
    const keyring = this.keyringOf(streamId);
    // A session going on with this very token keeps its start (no cut mid-view after `exp`).
    const session = viewer.sessionId ? this.viewers.get(viewer.sessionId) : undefined;
    const started = session?.grant?.token === token ? session.startedAt : undefined;
    const verdict = verifyPlaybackToken(token, {
      keys: keyring?.keys ?? new PlaybackKeyring(),
      revokedTokenIds: keyring?.revoked,
      verified: this.verified,
      target,
      viewer: {
        now,
        address: viewer.address,
        country: () => this.countryOf(viewer.address),
        origin: viewer.origin ?? null,
        referrer: viewer.referrer ?? null,
        ...(started ? { sessionStartedAt: started } : {}),
        activeSessions: (claims) =>
          this.sessionsOf(claims.jti ?? token, viewer.sessionId ?? null) +
          (claims.sub === target.streamId
            ? this.remoteSessionsOf(streamId, tokenSessionId(claims.jti ?? token)).length
            : 0),
      },
    });
    if (!verdict.ok) return verdict;
    const { claims } = verdict;
    const jti = claims.jti ?? null;
    const countedAs = jti ?? token;
    const maxSessions = claims.maxSessions ?? null;
    const shared = maxSessions !== null && claims.sub === target.streamId;
    return {
      ok: true,
      grant: {
        token,
        kid: verdict.kid,
        jti,
        countedAs,
        endsAt: verdict.sessionEndsAt,
        sharedAs: shared ? tokenSessionId(countedAs) : null,
        maxSessions,
      },
    };
  }

  /**
   * Ends the sessions their policy no longer admits: on a Signed output, a session without a token (admitted
   * with the static token or as Public before the change), or whose key or token was revoked, or whose
   * `maxSessionSeconds` is over. Run after each read of the assigned streams and every second.
   */
  sweep(outputAccess: (session: ViewerSession) => string | undefined, now = Date.now()): number {
    return this.viewers.kick((session) => {
      if (session.preview || outputAccess(session) !== 'Signed') return false;
      const why = this.over(session, now);
      if (why) this.log?.info(`viewer ${session.id} of output ${session.outputId} disconnected: ${why}`);
      return why ?? false;
    });
  }

  /** Why the session may not play on (the text its player is shown), or null. */
  private over(session: ViewerSession, now: number): string | null {
    const { grant } = session;
    if (!grant) return SIGNED_ONLY;
    const keyring = this.keyringOf(session.streamId);
    const key = keyring?.keys.get(grant.kid);
    if (!key) return REFUSALS.unknown_key;
    if (key.revoked) return REFUSALS.key_revoked;
    if (grant.jti !== null && keyring?.revoked.has(grant.jti)) return REFUSALS.token_revoked;
    if (grant.endsAt && now >= grant.endsAt.getTime()) return REFUSALS.session_over;
    if (this.overSharedCap(session, grant)) return REFUSALS.too_many_sessions;
    return null;
  }

  /**
   * Whether a capped stream-wide token has more sessions than it allows across the stream's nodes, and this one is
   * among the last started (the earliest `maxSessions` play on; every node ranks them alike: by start, then id). Two
   * nodes may each admit one before they hear of the other's (a report interval and a poll): the later one ends then.
   */
  private overSharedCap(session: ViewerSession, grant: SignedGrant): boolean {
    if (grant.sharedAs === null || grant.maxSessions === null) return false;
    const remote = this.remoteSessionsOf(session.streamId, grant.sharedAs);
    if (remote.length === 0) return false;
    const local = this.viewers
      .all()
      .filter((other) => other.streamId === session.streamId && other.grant?.countedAs === grant.countedAs)
      .map((other) => ({ sessionId: other.id, startedAt: other.startedAt.getTime() }));
    const ranked = [...local, ...remote].sort(
      (a, b) => a.startedAt - b.startedAt || (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0),
    );
    return ranked.findIndex((entry) => entry.sessionId === session.id) >= grant.maxSessions;
  }

  /** The sessions of a capped stream-wide token (`tokenId`) on the stream's other nodes. */
  private remoteSessionsOf(streamId: string, tokenId: string): readonly RemoteSession[] {
    return this.elsewhere.get(streamId)?.get(tokenId) ?? [];
  }

  /** Sessions on this node counted as `countedAs`, but `except` (the session asking again). */
  private sessionsOf(countedAs: string, except: string | null): number {
    let count = 0;
    for (const session of this.viewers.all()) {
      if (session.grant?.countedAs === countedAs && session.id !== except) count++;
    }
    return count;
  }
}
