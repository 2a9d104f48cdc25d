import { randomUUID } from 'node:crypto';
import type { ConfigPart, NodeSigning, StreamStateReport, TrackInfo } from '@streamcloud/contract';
import type { Reporter } from '../control-plane.js';
import type { Logger } from '../log.js';
import { Admission, type PushRefusal } from './admission.js';
import type { AssignedStream, StreamDirectory } from './directory.js';
import { StreamEvents } from './events.js';
import { SignedPlayback } from './signed-playback.js';
import { IncomingTracks } from './tracks.js';
import type { FallbackTakeover, LiveStream, PublishHandle, PushProtocol } from './types.js';
import { UsageMeter } from './usage.js';
import { Viewers } from './viewers.js';

export interface StreamManagerOptions {
  directory: StreamDirectory;
  reporter: Reporter;
  log: Logger;
  hlsDir: string;
  ffprobe: string;
  reconnectGraceMs: number;
  /** Reads the assigned streams again now (a push may name a stream created since the last poll). */
  refreshDirectory?: () => Promise<void>;
  /** Asks the control plane for the stream of a GSLB name pushed here; null once it is here, else why not. */
  claimIngress?: (name: string) => Promise<string | null>;
  /** A viewer's country (the node's GeoIP lookup), for playback tokens that restrict countries; null when unknown. */
  countryOf?: (address: string | null) => string | null;
  /** Reads an account's playback signing material (the control plane's GET /node/playback-signing/:id). */
  readSigning?: (accountId: string) => Promise<NodeSigning>;
}

export type StateFields = Omit<StreamStateReport, 'id' | 'kind' | 'streamId' | 'at'>;

/**
 * Coordinates the node's live streams: one push per stream, the reconnect grace, Stop from the control
 * plane, emergency cleanup and shutdown. The rules and the bookkeeping are its parts: `admission` (who may
 * push and play), `viewers` (who watches), `usage` (metrics and billing), `events` (what pipelines and
 * front ends subscribe to). Front ends (RTMP via nginx, SRT, WHIP) ask `admission.push`, then call
 * `startPush`, and `endPush` when the push is over; players go through `admission.play` and `viewers`.
 */
export class StreamManager {
  readonly events: StreamEvents;
  readonly admission: Admission;
  readonly viewers: Viewers;
  /** Signed outputs' playback tokens: their keys, verification, and the end of sessions they no longer admit. */
  readonly signed: SignedPlayback;
  readonly usage: UsageMeter;
  private readonly pushes = new Map<string, LiveStream>();
  /** Streams whose push ended, waiting out the reconnect grace before they are reported Idle or Error. */
  private readonly grace = new Map<string, { timer: NodeJS.Timeout; stream: LiveStream }>();
  /** Streams a fallback took over since their last push: the next push resumes the stream. */
  private readonly afterFallback = new Set<string>();
  /**
   * Streams whose status the control plane has as Fallback (a fallback started and nothing else was
   * reported since), with the fallback playing, the tracks of the push it replaced and the Fallback
   * report's sequence: a push coming back counts (is reported) only once its media arrived, so an encoder
   * that connects and drops does not flip the status.
   */
  private readonly showingFallback = new Map<string, { fallbackId: string; tracks: TrackInfo[] | null; seq: number }>();
  /**
   * On an edge: the streams ingested elsewhere that the control plane showed live (their reconnect grace on the
   * origin included) or this node pulled at the last read; one no longer either is over here too (`gone`).
   */
  private liveElsewhere = new Set<string>();
  /** The fallback player, once the node has wired it. */
  fallbacks: FallbackTakeover | null = null;
  /** On an edge: whether a pull of the stream (whole, or a ladder's rendition) still brings it here (the edge puller's). */
  pulledHere: (streamId: string) => boolean = (streamId) => Boolean(this.pushes.get(streamId)?.pulledFrom);

  constructor(private readonly o: StreamManagerOptions) {
    this.events = new StreamEvents(o.log);
    this.viewers = new Viewers(o.directory, (streamId, fields) => this.state(streamId, fields));
    this.signed = new SignedPlayback(this.viewers, o.countryOf ?? (() => null), o.log, o.readSigning ?? null);
    this.admission = new Admission(
      o.directory,
      (streamId) => this.push(streamId),
      o.refreshDirectory,
      (streamId, connected) => this.fallbacks?.release(streamId, connected) ?? Promise.resolve(true),
      o.claimIngress,
      this.signed,
    );
    // A fallback's and an edge pull's time and bytes are not ingest: only pushes are billed as incoming.
    this.usage = new UsageMeter(
      o.reporter,
      () => this.activePushes().filter((stream) => !stream.fallback && !stream.pulledFrom),
      this.viewers,
    );
    this.events.subscribe(
      new IncomingTracks({
        hlsDir: o.hlsDir,
        ffprobe: o.ffprobe,
        log: o.log,
        report: (stream, tracks) => this.reportTracks(stream, tracks),
        firstFragment: (stream) => this.mediaArrived(stream),
      }),
    );
  }

  // ------------------------------------------------------------------ pushes

  /** Reports a refused push on the stream it named (when that stream is ours) and logs it. */
  refusePush(refusal: PushRefusal): void {
    this.o.log.info(`push refused: ${refusal.reason}`);
    if (refusal.assigned) this.state(refusal.assigned.id, { message: { level: 'warning', text: refusal.reason } });
  }

  startPush(assigned: AssignedStream, protocol: PushProtocol, handle: PublishHandle): LiveStream {
    const waiting = this.grace.get(assigned.id);
    if (waiting) {
      clearTimeout(waiting.timer);
      this.grace.delete(assigned.id);
    }
    const resumed = waiting !== undefined || this.afterFallback.delete(assigned.id);
    const stream = this.newStream(assigned, protocol, handle, null);
    const from = handle.remoteAddress ? ` from ${handle.remoteAddress}` : '';
    const text = resumed ? `Push resumed over ${protocol}${from}` : `Push started over ${protocol}${from}`;
    const shown = this.showingFallback.get(assigned.id);
    if (shown) {
      // Reported when its media arrives (mediaArrived); the stream shows Fallback until then, and a Stop
      // after that Fallback report ends it.
      stream.returning = { text, tracks: shown.tracks };
      stream.ingestionSeq = shown.seq;
    } else {
      stream.ingestionSeq = this.state(assigned.id, { status: 'Ingestion', message: { level: 'info', text } });
    }
    this.o.log.info(`push of ${assigned.name} started over ${protocol}${from}`);
    this.events.live(stream);
    return stream;
  }

  /**
   * A fallback publishes into the stream's own name (the takeover asked for it): it is the stream's
   * content from now on, with status Fallback, until a push comes back or it ends.
   */
  startFallback(last: LiveStream, fallback: { id: string; label: string }, handle: PublishHandle): LiveStream | null {
    if (this.push(last.assigned.id)) return null;
    const assigned = this.o.directory.byId(last.assigned.id) ?? last.assigned;
    const stream = this.newStream(assigned, last.protocol, handle, fallback);
    // The same fallback again after a push that came back and dropped before its media: nothing changed
    // for anyone, so nothing is said (the next fallback of the list taking over is said).
    const shown = this.showingFallback.get(assigned.id);
    const again = shown?.fallbackId === fallback.id;
    stream.ingestionSeq = this.state(assigned.id, {
      status: 'Fallback',
      ...(again ? {} : { message: { level: 'warning' as const, text: `Fallback ${fallback.label} started` } }),
    });
    this.showingFallback.set(assigned.id, {
      fallbackId: fallback.id,
      tracks: shown ? shown.tracks : last.tracks,
      seq: stream.ingestionSeq,
    });
    this.o.log.info(`fallback ${fallback.label} of ${assigned.name} started`);
    this.events.live(stream);
    return stream;
  }

  /** A push's first fragment exists: a push that came back during a fallback has the stream now. */
  private mediaArrived(stream: LiveStream): void {
    if (!stream.returning || stream.ended) return;
    const { text } = stream.returning;
    stream.returning = null;
    this.showingFallback.delete(stream.assigned.id);
    stream.ingestionSeq = this.state(stream.assigned.id, { status: 'Ingestion', message: { level: 'info', text } });
  }

  /**
   * An edge pull published the stream it pulls from `origin` (pipelines/edge): this node's viewers of the
   * stream's outputs watch it from now on. Nothing is reported about the stream: its ingest node does that.
   */
  startPulled(assigned: AssignedStream, origin: string, handle: PublishHandle): LiveStream | null {
    if (this.push(assigned.id)) return null;
    const stream = this.newStream(assigned, 'RTMP', handle, null);
    stream.pulledFrom = origin;
    this.o.log.info(`pulling ${assigned.name} from node ${origin}`);
    this.events.live(stream);
    return stream;
  }

  /** The takeover ended without a push coming back (no fallback could play, or the last one failed). */
  fallbackOver(last: LiveStream, failure: string | null): void {
    if (this.push(last.assigned.id)) return;
    this.afterFallback.delete(last.assigned.id);
    this.over(last.assigned.id, failure);
  }

  private newStream(
    assigned: AssignedStream,
    protocol: PushProtocol,
    handle: PublishHandle,
    fallback: LiveStream['fallback'],
  ): LiveStream {
    const now = Date.now();
    const source = { rtmpName: assigned.id, hlsName: handle.rawName };
    const stream: LiveStream = {
      id: randomUUID(),
      assigned,
      protocol,
      handle,
      startedAt: new Date(now),
      ended: false,
      failure: null,
      ingestionSeq: 0,
      stoppedByControlPlane: false,
      firstFragmentAt: null,
      tracks: null,
      fallback,
      returning: null,
      pulledFrom: null,
      source,
      outgoing: { main: source, renditions: null },
      webrtc: null,
      transcoding: false,
      transcodedSinceReport: false,
      reported: { bytesIn: 0, bytesOut: 0, at: now },
    };
    this.pushes.set(assigned.id, stream);
    return stream;
  }

  /**
   * The push is over: its last usage is reported now, its status after the reconnect grace. A stream pulled
   * from another node ends as a pull (`endPulled`); `byOrigin` says the origin ended it. `stoppedByPublisher`:
   * the publisher said it is over (a WHIP DELETE), so there is no grace: what follows a grace follows at once.
   */
  endPush(
    stream: LiveStream,
    failure: string | null = null,
    { byOrigin = false, stoppedByPublisher = false }: { byOrigin?: boolean; stoppedByPublisher?: boolean } = {},
  ): void {
    if (stream.pulledFrom) {
      this.endPulled(stream, { byOrigin, failure });
      return;
    }
    if (stream.ended) return;
    stream.ended = true;
    stream.failure = failure;
    if (stream.fallback) {
      // The takeover decides what follows a fallback (the next one, the push, or Idle); a Stop ends it.
      this.events.ended(stream);
      if (this.pushes.get(stream.assigned.id) === stream) this.pushes.delete(stream.assigned.id);
      if (stream.stoppedByControlPlane) {
        this.afterFallback.delete(stream.assigned.id);
        this.showingFallback.delete(stream.assigned.id);
        this.events.gone(stream.assigned.id);
      }
      return;
    }
    this.o.log.info(`push of ${stream.assigned.name} ended${failure ? `: ${failure}` : ''}`);
    this.usage.pushEnded(stream);
    this.endViewersOf(stream);
    this.events.ended(stream);
    if (this.pushes.get(stream.assigned.id) === stream) this.pushes.delete(stream.assigned.id);
    if (stream.stoppedByControlPlane) {
      // Stopped (Idle already in the control plane): no grace, no takeover; the stream is over here at once
      // (its HLS playlists end with EXT-X-ENDLIST, its relays complete), as when a grace ends.
      this.showingFallback.delete(stream.assigned.id);
      this.events.gone(stream.assigned.id);
      return;
    }
    if (stream.returning) {
      // It came back during a fallback and went before its media: the fallback plays on at once, in the
      // picture of the push it replaced.
      stream.tracks ??= stream.returning.tracks;
      if (this.takeOver(stream)) return;
    }
    // A failed push is taken over at once; one that ended cleanly may resume within the grace first.
    if (failure && this.takeOver(stream)) return;
    if (stoppedByPublisher && !failure) {
      if (this.takeOver(stream)) return;
      this.over(stream.assigned.id, null, 'Push stopped by the publisher');
      return;
    }
    const timer = setTimeout(() => {
      this.grace.delete(stream.assigned.id);
      if (this.pushes.has(stream.assigned.id)) return;
      if (this.takeOver(stream)) return;
      this.over(stream.assigned.id, stream.failure);
    }, this.o.reconnectGraceMs);
    timer.unref();
    this.grace.set(stream.assigned.id, { timer, stream });
  }

  /**
   * An edge pull that ends: its viewers go with it (a new viewer pulls again); no status. Ended by the origin
   * (`byOrigin`: its push ended, and may resume there within its reconnect grace) while the control plane still
   * shows the stream live, it is over here (`gone`, which ends its HLS playlists) only once the control plane
   * shows it over (`reconcile`), as on the origin; one this node let go of (no viewer left) is over at once.
   */
  private endPulled(stream: LiveStream, o: { byOrigin: boolean; failure: string | null }): void {
    if (stream.ended) return;
    stream.ended = true;
    stream.failure = o.failure;
    this.o.log.info(
      `pull of ${stream.assigned.name} from node ${stream.pulledFrom} ended${o.failure ? `: ${o.failure}` : ''}`,
    );
    this.endViewersOf(stream);
    this.events.ended(stream);
    if (this.pushes.get(stream.assigned.id) === stream) this.pushes.delete(stream.assigned.id);
    if (!o.byOrigin || !this.liveElsewhere.has(stream.assigned.id)) this.events.gone(stream.assigned.id);
  }

  /**
   * RTMP and WebRTC viewers' sessions end with the push (nginx drops RTMP players itself; WebRTC viewers
   * are closed by their front end, which listens for the end). HLS players keep their sessions: the
   * playlist outlives the push (reconnect grace), and they end when idle.
   */
  private endViewersOf(stream: LiveStream): void {
    for (const viewer of this.viewers.all())
      if (viewer.streamId === stream.assigned.id && viewer.format !== 'HLS') this.viewers.end(viewer.id);
  }

  private takeOver(stream: LiveStream): boolean {
    if (!this.fallbacks?.takeOver(stream)) return false;
    this.afterFallback.add(stream.assigned.id);
    return true;
  }

  /** The stream is over: Idle, or Error when the push failed. */
  private over(streamId: string, failure: string | null, ended = 'Push ended'): void {
    this.showingFallback.delete(streamId);
    if (failure)
      this.state(streamId, { status: 'Error', message: { level: 'error', text: `Push failed: ${failure}` } });
    else this.state(streamId, { status: 'Idle', message: { level: 'info', text: ended } });
    this.events.gone(streamId);
  }

  /** The stream's push going on, if any. */
  push(streamId: string): LiveStream | undefined {
    const stream = this.pushes.get(streamId);
    return stream && !stream.ended ? stream : undefined;
  }

  activePushes(): LiveStream[] {
    return [...this.pushes.values()].filter((stream) => !stream.ended);
  }

  /** Whether the stream's push ended less than the reconnect grace ago (it may resume). */
  inGrace(streamId: string): boolean {
    return this.grace.has(streamId);
  }

  // ------------------------------------------------------------------ control plane

  /**
   * The assigned streams were read again (every ~2 s): a stream no longer ours, or Idle while we push it
   * (Stop in the console), loses its publisher; viewers of cleared or deleted outputs are disconnected;
   * pipelines hear of every part of a configuration that changed. `deliveredSeq` is the reporter's
   * delivered sequence when the read was sent.
   */
  reconcile(deliveredSeq: number, changes: ReadonlyMap<AssignedStream, ReadonlySet<ConfigPart>>): void {
    for (const stream of this.activePushes()) {
      const assigned = this.o.directory.byId(stream.assigned.id);
      if (!assigned) {
        this.stop(stream);
        continue;
      }
      stream.assigned = assigned;
      if (assigned.status === 'Idle' && stream.ingestionSeq <= deliveredSeq) {
        this.o.log.info(`${assigned.name} was stopped from the control plane: disconnecting its publisher`);
        this.stop(stream);
      }
    }
    // A takeover between two fallbacks (none publishing) of a stream stopped or deleted meanwhile ends.
    for (const streamId of this.afterFallback) {
      const assigned = this.o.directory.byId(streamId);
      if (this.pushes.has(streamId) || (assigned && assigned.status !== 'Idle')) continue;
      this.afterFallback.delete(streamId);
      this.showingFallback.delete(streamId);
      void this.fallbacks?.release(streamId);
      this.events.gone(streamId);
    }
    // On an edge, a stream the control plane no longer shows live (its grace ended on the origin, or it moved) is
    // over here too — not while this node still pulls it: the origin still sends it, and the control plane may only
    // have stopped hearing from the origin (a network cut between them, docs/chaos.md).
    const liveElsewhere = new Set(
      this.o.directory
        .all()
        .filter(
          (assigned) =>
            assigned.origin &&
            (assigned.status === 'Ingestion' || assigned.status === 'Fallback' || this.pulledHere(assigned.id)),
        )
        .map((assigned) => assigned.id),
    );
    for (const streamId of this.liveElsewhere) if (!liveElsewhere.has(streamId)) this.events.gone(streamId);
    this.liveElsewhere = liveElsewhere;
    this.viewers.reconcile();
    // Keys and revocations were read with the streams (SignedPlayback.load; pushed on a revocation): the sessions
    // they end, end now.
    this.signed.update(this.o.directory.all());
    this.sweepSigned();
    for (const [assigned, parts] of changes) this.events.configChanged(assigned, parts);
  }

  /** Ends the sessions of Signed outputs whose token, key or viewing time is over (after each read, and every second). */
  sweepSigned(): number {
    return this.signed.sweep(
      (session) =>
        this.o.directory.byId(session.streamId)?.outputs.find((output) => output.id === session.outputId)?.access,
    );
  }

  /** Emergency cleanup: every publisher and viewer goes; new ones are refused until it is disabled. */
  cleanup(): { pushes: number; viewers: number } {
    const viewers = this.viewers.kick(() => true);
    const pushes = this.activePushes();
    const reason = 'the node was cleaned up by an administrator';
    for (const stream of pushes) {
      if (stream.fallback) {
        this.stop(stream);
        this.state(stream.assigned.id, {
          status: 'Error',
          message: { level: 'error', text: `Push failed: ${reason}` },
        });
        continue;
      }
      stream.handle.kick();
      this.endPush(stream, reason);
    }
    return { pushes: pushes.length, viewers };
  }

  /** The node stops: every push and viewer goes, and the pushed streams are reported Idle at once. */
  shutdown(): void {
    this.viewers.kick(() => true);
    for (const stream of this.activePushes()) {
      this.stop(stream);
      if (stream.pulledFrom) continue;
      this.state(stream.assigned.id, {
        status: 'Idle',
        message: { level: 'warning', text: 'The node serving this stream stopped' },
      });
    }
    for (const { timer, stream } of this.grace.values()) {
      clearTimeout(timer);
      this.state(stream.assigned.id, {
        status: stream.failure ? 'Error' : 'Idle',
        message: { level: 'info', text: 'Push ended' },
      });
    }
    this.grace.clear();
  }

  /** Tells the control plane again what the node knows: states of streams with pushes, and every output's sessions. */
  resync(): number {
    const ours = new Map(this.activePushes().map((stream) => [stream.assigned.id, stream]));
    for (const assigned of this.o.directory.all()) {
      const stream = ours.get(assigned.id);
      if (assigned.origin) {
        // An edge reports its outputs' sessions only: the stream's state is its ingest node's.
      } else if (stream) {
        const status = stream.fallback || stream.returning ? 'Fallback' : 'Ingestion';
        if (assigned.status !== status) this.state(assigned.id, { status });
      } else if ((assigned.status === 'Ingestion' || assigned.status === 'Fallback') && !this.grace.has(assigned.id)) {
        // Ingestion without a push here: left over from before this node (re)started.
        this.state(assigned.id, {
          status: 'Idle',
          message: { level: 'info', text: 'The node serving this stream restarted: no push is going on' },
        });
      }
      this.viewers.markChanged(assigned.id);
    }
    this.viewers.flush();
    return this.o.directory.all().length;
  }

  // ------------------------------------------------------------------ reporting

  /**
   * Says each live push's status again. While the control plane could not hear the node (a network cut, an
   * outage of its own) longer than its silence time, it set the node's streams to Error; their pushes went on
   * here, and no change would ever report them again. A report of an unchanged status changes nothing there.
   */
  restate(): void {
    for (const stream of this.activePushes()) {
      // An edge's pull is its origin's to report.
      if (stream.pulledFrom) continue;
      this.state(stream.assigned.id, { status: stream.fallback || stream.returning ? 'Fallback' : 'Ingestion' });
    }
  }

  /** Queues a stream-state report; answers the report's sequence number. */
  state(streamId: string, fields: StateFields): number {
    return this.o.reporter.send({ kind: 'stream-state', streamId, at: new Date().toISOString(), ...fields });
  }

  reportTracks(stream: LiveStream, tracks: { incoming?: TrackInfo[]; outgoing?: TrackInfo[] }): void {
    if (stream.pulledFrom) return;
    this.state(stream.assigned.id, { tracks });
  }

  /** Ends a push the control plane no longer wants here: its publisher is disconnected, no status follows. */
  private stop(stream: LiveStream): void {
    stream.stoppedByControlPlane = true;
    stream.handle.kick();
    this.endPush(stream);
  }
}
