import type { StreamStateReport } from '@streamcloud/contract';
import type { StreamDirectory } from './directory.js';
import { PREVIEW_SESSIONS_PER_CREDENTIAL, PreviewSeats } from './preview-seats.js';
import type { ViewerSession } from './types.js';

type StateFields = Omit<StreamStateReport, 'id' | 'kind' | 'streamId' | 'at'>;

/**
 * Everyone watching: one session per RTMP connection, HLS session id or WHEP peer, counted per output,
 * disconnected when the control plane clears its output's sessions or deletes the output, and reported
 * (the sessions of every output of a stream) whenever they change. Preview sessions (the console's player)
 * are kept here too (kicked alike) but reported as a count apart from the viewer sessions.
 */
export class Viewers {
  private readonly sessions = new Map<string, ViewerSession>();
  /** Sessions that ended since the last usage report: their last bytes are still owed. */
  private ended: ViewerSession[] = [];
  private readonly clearedSeen = new Map<string, string | null>();
  private readonly dirty = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  /** Preview credentials' sessions, bounded (a session's seat is given back when it ends here). */
  readonly previewSeats = new PreviewSeats();
  /** Bytes sent to preview sessions that ended (never billed; the node's metadata shows what previews cost). */
  private previewBytesEnded = 0;

  constructor(
    private readonly directory: StreamDirectory,
    private readonly state: (streamId: string, fields: StateFields) => number,
  ) {}

  start(
    viewer: Omit<ViewerSession, 'ended' | 'reported' | 'startedAt' | 'preview'> & { preview?: boolean },
  ): ViewerSession {
    const session: ViewerSession = {
      ...viewer,
      preview: viewer.preview ?? false,
      startedAt: new Date(),
      ended: false,
      reported: { bytesIn: 0, bytesOut: 0, at: Date.now() },
    };
    this.sessions.set(session.id, session);
    this.changed(session.streamId);
    return session;
  }

  end(id: string): void {
    const session = this.sessions.get(id);
    if (!session || session.ended) return;
    session.ended = true;
    this.sessions.delete(id);
    this.previewSeats.release(id);
    // A preview's bytes are never billed: only viewers' last bytes are owed.
    if (!session.preview) this.ended.push(session);
    else this.previewBytesEnded += session.bytesOut();
    this.changed(session.streamId);
  }

  get(id: string): ViewerSession | undefined {
    return this.sessions.get(id);
  }

  get count(): number {
    return this.sessions.size;
  }

  /** Every session, previews included. */
  all(): ViewerSession[] {
    return [...this.sessions.values()];
  }

  /** The customers' viewers: every session but previews (what metrics and billing count). */
  viewers(): ViewerSession[] {
    return this.all().filter((session) => !session.preview);
  }

  /** What previews cost on this node: sessions now, bytes sent to them since the start, sessions refused a seat. */
  previewCounters(): { sessions: number; bytesOut: number; refused: number; perCredential: number } {
    const previews = this.all().filter((session) => session.preview);
    return {
      sessions: previews.length,
      bytesOut: previews.reduce((sum, session) => sum + session.bytesOut(), this.previewBytesEnded),
      refused: this.previewSeats.refused,
      perCredential: PREVIEW_SESSIONS_PER_CREDENTIAL,
    };
  }

  /** The viewer sessions that ended since the last `takeEnded()`, left in place (their last bytes are still owed). */
  endedSinceReport(): readonly ViewerSession[] {
    return this.ended;
  }

  /** The viewer sessions that ended since the last call (their last bytes are reported once). */
  takeEnded(): ViewerSession[] {
    const ended = this.ended;
    this.ended = [];
    return ended;
  }

  /**
   * Disconnects and ends the sessions `which` picks (true, or the text their players may be shown); answers how
   * many.
   */
  kick(which: (viewer: ViewerSession) => boolean | string): number {
    let kicked = 0;
    for (const viewer of this.all()) {
      const picked = which(viewer);
      if (picked === false) continue;
      viewer.kick(typeof picked === 'string' ? picked : undefined);
      this.end(viewer.id);
      kicked++;
    }
    return kicked;
  }

  /**
   * The assigned streams were read again: the viewers of an output that is gone (deleted, or its stream no
   * longer served here) or whose sessions were cleared are disconnected at once.
   */
  reconcile(): void {
    const outputs = new Set<string>();
    for (const assigned of this.directory.all()) {
      for (const output of assigned.outputs) {
        outputs.add(output.id);
        const cleared = output.sessionsClearedAt;
        const seen = this.clearedSeen.get(output.id);
        this.clearedSeen.set(output.id, cleared);
        if (seen === undefined || seen === cleared) continue;
        this.kick((viewer) => viewer.outputId === output.id);
      }
    }
    for (const id of this.clearedSeen.keys()) if (!outputs.has(id)) this.clearedSeen.delete(id);
    this.kick((viewer) => !outputs.has(viewer.outputId));
  }

  /** Marks every stream's sessions to be reported again (a resync), or just those of `streamId`. */
  markChanged(streamId: string): void {
    this.dirty.add(streamId);
  }

  /** The viewer sessions of every output of the streams that changed, as the control plane shows them. */
  flush(): void {
    for (const streamId of this.dirty) {
      const assigned = this.directory.byId(streamId);
      if (!assigned) continue;
      const outputs = assigned.outputs.map((output) => {
        const sessions = this.all().filter((session) => session.outputId === output.id);
        return {
          outputId: output.id,
          sessions: sessions
            .filter((session) => !session.preview)
            .map((viewer) => ({
              id: viewer.id,
              ipAddress: viewer.ipAddress,
              startedAt: viewer.startedAt.toISOString(),
              bytes: viewer.bytesOut(),
              // A capped stream-wide token's session: the stream's other nodes count it against the cap too.
              ...(viewer.grant?.sharedAs ? { tokenId: viewer.grant.sharedAs } : {}),
            })),
          previews: sessions.filter((session) => session.preview).length,
        };
      });
      if (outputs.length > 0) this.state(streamId, { outputs });
    }
    this.dirty.clear();
  }

  /** Sessions are reported a moment after they change, several changes at once. */
  private changed(streamId: string): void {
    this.dirty.add(streamId);
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, 300);
    this.timer.unref();
  }
}
