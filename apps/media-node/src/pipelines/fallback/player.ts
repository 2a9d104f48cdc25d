import type { NodeFallback as Fallback, FallbackState, StatusMessage } from '@streamcloud/contract';
import { type GuardedChild, lastLine, spawnGuarded } from '../../child.js';
import type { ReportBody } from '../../control-plane.js';
import type { Logger } from '../../log.js';
import type { AssignedStream } from '../../streams/directory.js';
import type { FallbackTakeover, StreamManager } from '../../streams/manager.js';
import type { LiveStream } from '../../streams/types.js';
import type { NodeTools } from '../pipeline.js';
import { fallbackArgs, type PlayoutFormat, playoutFormat } from './command.js';
import {
  type FallbackSource,
  forgetSource,
  keepsCopy,
  type Prepared,
  prepareSource,
  type SourceTools,
  sweepSources,
  touchKept,
} from './sources.js';

/** A fallback that stops is out of nginx within this long (its publish_done), or the push goes ahead anyway. */
const LEAVE_TIMEOUT_MS = 2000;
/**
 * A flapping encoder: after a returning push dropped before its media, the next pushes within
 * FLAP_WINDOW_MS are held up to FLAP_HOLD_MS before the fallback makes way; one that leaves meanwhile
 * never stops the fallback (docs/decisions.md, fallbacks: flapping encoders).
 */
const FLAP_WINDOW_MS = 60_000;
const FLAP_HOLD_MS = 2000;
const HOLD_POLL_MS = 100;
/** How often kept copies of storage objects are swept (`sweep`). */
const SWEEP_INTERVAL_MS = 10 * 60_000;

export interface FallbackPlayerOptions {
  manager: Pick<StreamManager, 'startFallback' | 'fallbackOver' | 'endPush' | 'events'>;
  tools: NodeTools;
  sources: SourceTools;
  /** Node reports (fallback-state). */
  send(report: ReportBody): void;
  /** A status message on the stream. */
  message(streamId: string, level: StatusMessage['level'], text: string): void;
  /** Whether the node still serves a stream (a deleted stream's, or one moved to another node, is not). */
  serves(streamId: string): boolean;
  /** A kept copy of a storage object unused this long is removed (FALLBACK_COPY_MAX_IDLE_MS). */
  keptCopyMaxIdleMs: number;
  log: Logger;
}

/** The ffmpeg playing one fallback into the stream's name, and the live stream it became once nginx took it. */
interface Playing {
  fallback: Fallback;
  child: GuardedChild;
  stream: LiveStream | null;
  clientId: string | null;
  /** Resolves when nginx let go of its publish (publish_done) or the process ended without one. */
  left: Promise<void>;
  leave(): void;
}

/** One takeover of a stream: from the push's drop until the push returns, a Stop, or no fallback is left. */
interface Takeover {
  /** The push it replaces: its name in nginx, its size and frame rate, and its failure if it all ends. */
  last: LiveStream;
  format: PlayoutFormat;
  /** Fallbacks that failed (or could not be prepared) during this takeover: not tried again in it. */
  failed: Set<string>;
  current: Playing | null;
  done: boolean;
  /** When the push before it came back and dropped before its media (it is flapping), else null. */
  flappedAt: number | null;
}

/**
 * The fallback player: keeps every live stream's fallbacks prepared (fetched and checked, each reported
 * Pending "Ready: …" or Error with the reason), and when a push is gone (the manager asks at the end of
 * the reconnect grace, or at once when the push failed) plays the first usable fallback of the list into
 * the stream's own name in nginx, so every output (HLS, RTMP, WebRTC, the ladder) goes on under its URL.
 * A fallback that fails while playing is reported Error and the next usable one takes over; with none
 * left the stream ends as it would have without fallbacks. A push that comes back releases it first.
 */
export class FallbackPlayer implements FallbackTakeover {
  /** Each stream's fallbacks as last read while it was live, in the owner's order. */
  private readonly configs = new Map<string, Fallback[]>();
  /**
   * The storage-object fallbacks of streams that are no longer live, whose copies are kept for the next live
   * session (revalidated by ETag); the next list read removes those deleted meanwhile.
   */
  private readonly kept = new Map<string, Fallback[]>();
  /** Each fallback's preparation (by id), for the version of its settings it was made from. */
  private readonly prepared = new Map<string, { version: string; result: Promise<Prepared> }>();
  /** What each fallback was last reported as, so nothing is said twice. */
  private readonly reported = new Map<string, string>();
  private readonly takeovers = new Map<string, Takeover>();
  /** The fallback streams by nginx client id (publish_done names the client). */
  private readonly byClient = new Map<string, Playing>();

  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly o: FallbackPlayerOptions) {
    o.manager.events.subscribe({ gone: (streamId) => this.forget(streamId) });
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
    // At once too: what a node process before this one kept is known to no one now.
    void this.sweep();
  }

  /**
   * Removes the kept copies nothing will use: those of a stream this node no longer serves (deleted, or
   * moved), and any unused for `keptCopyMaxIdleMs` (its stream did not go live again, the fallback was
   * deleted meanwhile, or a node process before this one kept it). A live stream's are never swept.
   */
  async sweep(now = new Date()): Promise<void> {
    const keptBy = new Map<string, string>();
    for (const [streamId, fallbacks] of this.kept) for (const fallback of fallbacks) keptBy.set(fallback.id, streamId);
    const removed = await sweepSources(
      this.o.sources.dir,
      (fallbackId) => [...this.configs.values()].some((fallbacks) => fallbacks.some(({ id }) => id === fallbackId)),
      (fallbackId) => {
        const streamId = keptBy.get(fallbackId);
        return streamId !== undefined && !this.o.serves(streamId);
      },
      new Date(now.getTime() - this.o.keptCopyMaxIdleMs),
    );
    for (const fallbackId of removed) {
      const streamId = keptBy.get(fallbackId);
      if (streamId === undefined) continue;
      const left = (this.kept.get(streamId) ?? []).filter(({ id }) => id !== fallbackId);
      if (left.length > 0) this.kept.set(streamId, left);
      else this.kept.delete(streamId);
    }
    if (removed.length > 0) this.o.log.info(`fallback copies removed: ${removed.length} unused`);
  }

  /** The stream's fallbacks (read while it is live): each is prepared, and a takeover follows the change. */
  configure(assigned: AssignedStream, fallbacks: Fallback[]): void {
    const before = this.configs.get(assigned.id) ?? this.kept.get(assigned.id) ?? [];
    this.kept.delete(assigned.id);
    this.configs.set(assigned.id, fallbacks);
    for (const gone of before) {
      if (fallbacks.some((fallback) => fallback.id === gone.id)) continue;
      this.prepared.delete(gone.id);
      this.reported.delete(gone.id);
      void forgetSource(this.o.sources.dir, gone.id);
    }
    for (const fallback of fallbacks) void this.preparation(fallback);
    const takeover = this.takeovers.get(assigned.id);
    const playing = takeover?.current?.fallback;
    if (takeover && playing && !fallbacks.some((fallback) => version(fallback) === version(playing))) {
      // The fallback playing was changed or deleted: the list's first usable one takes over.
      takeover.failed.clear();
      void this.switch(takeover);
    }
  }

  takeOver(last: LiveStream): boolean {
    const candidates = this.configs.get(last.assigned.id) ?? [];
    if (candidates.length === 0 || this.takeovers.has(last.assigned.id)) return false;
    const takeover: Takeover = {
      last,
      format: playoutFormat(last.tracks),
      failed: new Set(),
      current: null,
      done: false,
      // The push it replaces had come back during a takeover and dropped before its media.
      flappedAt: last.returning ? Date.now() : null,
    };
    this.takeovers.set(last.assigned.id, takeover);
    void this.next(takeover);
    return true;
  }

  async release(streamId: string, connected?: () => boolean): Promise<boolean> {
    let takeover = this.takeovers.get(streamId);
    if (takeover && connected && takeover.flappedAt !== null && Date.now() - takeover.flappedAt < FLAP_WINDOW_MS) {
      if (!(await holdWhile(connected, FLAP_HOLD_MS))) return false;
      takeover = this.takeovers.get(streamId);
    }
    if (!takeover) return true;
    takeover.done = true;
    this.takeovers.delete(streamId);
    await this.end(takeover);
    return true;
  }

  /** nginx asks whether the fallback publishing for `streamId` is expected: answers the stream it became. */
  published(streamId: string, clientId: string): LiveStream | null {
    const takeover = this.takeovers.get(streamId);
    const playing = takeover?.current;
    if (!takeover || !playing || playing.stream) return null;
    const { fallback } = playing;
    const stream = this.o.manager.startFallback(
      takeover.last,
      { id: fallback.id, label: labelOf(fallback) },
      {
        rawName: takeover.last.source.hlsName,
        remoteAddress: null,
        bytesIn: () => 0,
        bytesOut: () => 0,
        // A Stop (or the node stopping): the takeover ends without another fallback.
        kick: () => void this.release(streamId),
      },
    );
    if (!stream) return null;
    playing.stream = stream;
    playing.clientId = clientId;
    this.byClient.set(clientId, playing);
    this.report(fallback, 'Ingestion', 'Playing');
    return stream;
  }

  /** nginx says a publish ended: answers whether it was a fallback's. */
  publishDone(clientId: string): boolean {
    const playing = this.byClient.get(clientId);
    if (!playing) return false;
    this.byClient.delete(clientId);
    if (playing.stream) this.o.manager.endPush(playing.stream);
    playing.leave();
    return true;
  }

  /** For /metadata: the fallbacks playing now. */
  describe(streamId: string): Record<string, unknown> | null {
    const playing = this.takeovers.get(streamId)?.current;
    return playing ? { fallback: playing.fallback.id, type: playing.fallback.type } : null;
  }

  /** The node stops: every takeover ends. */
  async stopAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.takeovers.keys()].map((streamId) => this.release(streamId)));
  }

  private preparation(fallback: Fallback): Promise<Prepared> {
    const known = this.prepared.get(fallback.id);
    if (known?.version === version(fallback)) return known.result;
    const result = prepareSource(fallback, this.o.sources).then((prepared) => {
      if (this.prepared.get(fallback.id)?.result === result && !this.isPlaying(fallback.id)) {
        if (prepared.ok) this.report(fallback, 'Pending', `Ready: ${prepared.summary}`);
        else this.report(fallback, 'Error', prepared.reason);
      }
      return prepared;
    });
    this.prepared.set(fallback.id, { version: version(fallback), result });
    return result;
  }

  /** Plays the list's first fallback that is usable and has not failed in this takeover; else the takeover ends. */
  private async next(takeover: Takeover): Promise<void> {
    const streamId = takeover.last.assigned.id;
    for (const fallback of this.configs.get(streamId) ?? []) {
      if (takeover.done) return;
      if (takeover.failed.has(fallback.id)) continue;
      const prepared = await this.preparation(fallback);
      if (takeover.done || takeover.current) return;
      if (!prepared.ok) {
        takeover.failed.add(fallback.id);
        continue;
      }
      this.play(takeover, fallback, prepared.source);
      return;
    }
    if (takeover.done) return;
    takeover.done = true;
    this.takeovers.delete(streamId);
    this.o.manager.fallbackOver(takeover.last, takeover.last.failure);
  }

  private play(takeover: Takeover, fallback: Fallback, source: FallbackSource): void {
    const { last } = takeover;
    const url = `${this.o.tools.rtmpUrl(last.source.hlsName)}&fallback=${encodeURIComponent(last.assigned.id)}`;
    const child = spawnGuarded(this.o.tools.ffmpeg, fallbackArgs(source, takeover.format, url));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    let leave = () => {};
    const left = new Promise<void>((resolve) => {
      leave = resolve;
    });
    const playing: Playing = { fallback, child, stream: null, clientId: null, left, leave };
    takeover.current = playing;
    this.o.log.info(`fallback ${labelOf(fallback)} of ${last.assigned.name} starting`);
    void child.exited.then((code) => {
      if (playing.clientId) this.byClient.delete(playing.clientId);
      if (playing.stream) this.o.manager.endPush(playing.stream);
      playing.leave();
      if (takeover.done || takeover.current !== playing) return;
      // It failed while playing (or could not start): the next usable fallback takes over.
      const reason = lastLine(stderr.replace(/^.*Last message repeated.*$/gm, '')) || `ffmpeg exited (${code})`;
      this.o.log.error(`fallback ${labelOf(fallback)} of ${last.assigned.name} failed: ${reason}`);
      takeover.current = null;
      takeover.failed.add(fallback.id);
      this.report(fallback, 'Error', `Playing failed: ${reason}`);
      this.o.message(last.assigned.id, 'error', `Fallback ${labelOf(fallback)} failed: ${reason}`);
      void this.next(takeover);
    });
  }

  /** The fallback playing makes way for the list's first usable one. */
  private async switch(takeover: Takeover): Promise<void> {
    await this.end(takeover);
    if (!takeover.done) await this.next(takeover);
  }

  /** Stops what the takeover plays; resolves once nginx let go of it. */
  private async end(takeover: Takeover): Promise<void> {
    const playing = takeover.current;
    takeover.current = null;
    if (!playing) return;
    // Read now: a Stop forgets the stream's fallbacks while this one leaves.
    const preparing = this.prepared.get(playing.fallback.id)?.result;
    const still = this.configs.get(takeover.last.assigned.id)?.some((f) => version(f) === version(playing.fallback));
    await playing.child.stop();
    await Promise.race([playing.left, new Promise((resolve) => setTimeout(resolve, LEAVE_TIMEOUT_MS).unref())]);
    const prepared = await preparing;
    if (prepared?.ok && still) this.report(playing.fallback, 'Pending', `Ready: ${prepared.summary}`);
  }

  private isPlaying(fallbackId: string): boolean {
    return [...this.takeovers.values()].some((takeover) => takeover.current?.fallback.id === fallbackId);
  }

  /**
   * The stream is over (Idle or Error): what was prepared for it goes and the next push prepares again;
   * copies of storage objects stay, so that only checks they are unchanged.
   */
  private forget(streamId: string): void {
    if (this.takeovers.has(streamId)) return;
    const fallbacks = this.configs.get(streamId) ?? [];
    for (const fallback of fallbacks) {
      this.prepared.delete(fallback.id);
      this.reported.delete(fallback.id);
      if (!keepsCopy(fallback)) void forgetSource(this.o.sources.dir, fallback.id);
    }
    this.configs.delete(streamId);
    const kept = fallbacks.filter(keepsCopy);
    // Unused from now on: the sweep counts its idle time from the stream's end.
    for (const fallback of kept) void touchKept(this.o.sources.dir, fallback.id);
    if (kept.length > 0) this.kept.set(streamId, kept);
  }

  private report(fallback: Fallback, state: FallbackState, message: string): void {
    const said = `${state} ${message}`;
    if (this.reported.get(fallback.id) === said) return;
    this.reported.set(fallback.id, said);
    this.o.send({
      kind: 'fallback-state',
      fallbackId: fallback.id,
      at: new Date().toISOString(),
      state,
      message: message.slice(0, 1000),
    });
  }
}

/** Waits up to `ms` while `connected` holds: answers whether it still does at the end. */
async function holdWhile(connected: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (connected() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, HOLD_POLL_MS));
  return connected();
}

/** What the stream's messages call a fallback: its label, else its type. */
const labelOf = (fallback: Fallback) => fallback.label ?? fallback.type;

/**
 * A fallback's settings as the node acts on them: a change (its source, or its storage's credentials)
 * means preparing it again; not its state or updatedAt, which move with the node's own reports.
 */
const version = (fallback: Fallback) =>
  JSON.stringify([fallback.id, fallback.type, fallback.label, fallback.settings, fallback.storage]);
