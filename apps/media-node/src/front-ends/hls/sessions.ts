import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { StreamManager } from '../../streams/manager.js';
import type { SignedGrant } from '../../streams/types.js';

/** An HLS viewer whose player has not asked for anything this long has left. */
const HLS_SESSION_IDLE_MS = 20_000;
/**
 * A session id: `hls-<16 random bytes>.<16 bytes of an HMAC of them and what the session plays>`, base64url. The
 * random part makes it unguessable; the MAC binds it to its stream, output and credential kind (the preview
 * credential itself for a preview), so it is worth nothing anywhere else (HlsServer.handle).
 */
const SESSION_ID = /^hls-([\w-]{22})\.([\w-]{22})$/;

/** One HLS viewer: a session of the stream manager, with the bytes its player was sent. */
export interface HlsViewer {
  sessionId: string;
  bytes: number;
  lastSeen: number;
}

/** What admission answered for a viewer's request, as far as its session needs it. */
export interface AdmittedViewer {
  assigned: { id: string };
  outputId: string;
  preview: boolean;
  grant: SignedGrant | null;
}

/**
 * The HLS viewers' sessions: their ids (made and checked here, bound to what they play), their sessions in the
 * stream manager (started by a player's first request, ended when it goes idle or is kicked), and the bytes each
 * was sent (its usage).
 */
export class HlsSessions {
  private readonly viewers = new Map<string, HlsViewer>();
  /**
   * Sessions ended here: their requests get 410 from then on (cleared from the control plane), or 403 with the
   * reason a player shows (a playback token revoked or over).
   */
  private readonly kicked = new Map<string, string | null>();
  /** The key of session ids' MACs: this process's own (a restarted node's players get new sessions). */
  private readonly sessionKey = randomBytes(32);

  constructor(private readonly manager: StreamManager) {}

  /** Whether `sid` names a session going on (a player's next playlist or fragment continues it). */
  running(sid: string | null): boolean {
    return sid !== null && this.viewers.has(sid) && this.manager.viewers.get(sid) !== undefined;
  }

  /** Why the session of `sid` was ended here (null: cleared, no reason given), or undefined when it was not. */
  endedWhy(sid: string | null): string | null | undefined {
    return sid ? this.kicked.get(sid) : undefined;
  }

  /** A new session id bound to `binding` (see SESSION_ID). */
  newSessionId(binding: string): string {
    const id = randomBytes(16).toString('base64url');
    return `hls-${id}.${this.sessionMac(id, binding)}`;
  }

  /** Whether `sid` is a session id this node made for `binding`. */
  isSessionOf(sid: string, binding: string): boolean {
    const [, id = '', mac = ''] = SESSION_ID.exec(sid) ?? [];
    if (!id) return false;
    return timingSafeEqual(Buffer.from(mac), Buffer.from(this.sessionMac(id, binding)));
  }

  private sessionMac(id: string, binding: string): string {
    return createHmac('sha256', this.sessionKey)
      .update(`${id}|${binding}`)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  }

  /**
   * The session of `sid`: a player that comes back after its session ended starts it again under the same id. A
   * preview's new session needs a seat of its credential (PreviewSeats): null when it has none.
   */
  viewer(
    sid: string,
    request: IncomingMessage,
    { assigned, outputId, preview, grant }: AdmittedViewer,
    token: string | null,
  ): HlsViewer | null {
    let viewer = this.viewers.get(sid);
    if (!viewer || !this.manager.viewers.get(sid)) {
      if (preview && !this.manager.viewers.previewSeats.take(token ?? '', sid)) return null;
      const state: HlsViewer = { sessionId: sid, bytes: 0, lastSeen: Date.now() };
      viewer = state;
      this.viewers.set(sid, state);
      this.manager.viewers.start({
        id: sid,
        streamId: assigned.id,
        outputId,
        format: 'HLS',
        preview,
        ...(grant ? { grant } : {}),
        ipAddress: remoteAddressOf(request),
        bytesOut: () => state.bytes,
        bytesIn: () => 0,
        kick: (reason) => {
          this.kicked.set(sid, reason ?? null);
          this.viewers.delete(sid);
        },
      });
    }
    viewer.lastSeen = Date.now();
    return viewer;
  }

  /** Counts bytes sent to the viewer's session while it lasts (a kicked or idle session counts no more). */
  countTo(viewer: HlsViewer): (bytes: number) => void {
    return (bytes) => {
      const state = this.viewers.get(viewer.sessionId);
      if (state) state.bytes += bytes;
    };
  }

  /** Idle sessions end; kicked ids are remembered a while only. */
  sweep(now: number): void {
    for (const [id, viewer] of this.viewers) {
      if (now - viewer.lastSeen < HLS_SESSION_IDLE_MS) continue;
      this.viewers.delete(id);
      this.manager.viewers.end(id);
    }
    if (this.kicked.size > 10_000) this.kicked.clear();
  }
}

/** What an HLS session id is bound to: the stream, the output, and the preview credential (or "a viewer"). */
export function sessionBinding(
  admitted: { assigned: { id: string }; outputId: string; preview: boolean },
  token: string | null,
): string {
  return [admitted.assigned.id, admitted.outputId, admitted.preview ? `preview ${token}` : 'viewer'].join('|');
}

export const remoteAddressOf = (request: IncomingMessage) =>
  (request.socket.remoteAddress ?? '').replace(/^::ffff:/, '') || null;
