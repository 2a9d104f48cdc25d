import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  AssignedInput,
  InputFormat,
  NodeMetricName,
  SnapshotSettings,
  StreamStateReport,
  TrackInfo,
} from '@streamcloud/contract';
import type { ControlPlaneClient, Reporter } from './control-plane.js';
import { type InputDirectory, normalizeName, tokenMatches } from './inputs.js';
import type { Logger } from './log.js';
import { probeTracks, snapshot } from './probe.js';

export type PushProtocol = 'RTMP' | 'SRT' | 'WebRTC';
/** The output formats the node plays: RTMP (nginx), HLS (nginx's fragments), WebRTC (WHEP). */
export type PlayFormat = 'RTMP' | 'HLS' | 'WebRTC';

/** What a protocol front end hands over for one accepted push. */
export interface PublishHandle {
  /** The stream's name inside nginx-rtmp: its HLS fragments are under `<hlsDir>/<rawName>/`. */
  rawName: string;
  remoteAddress: string | null;
  /** Bytes the publisher sent to the node and the node sent back, since the push began. */
  bytesIn(): number;
  bytesOut(): number;
  /** Disconnects the publisher at once. */
  kick(): void;
}

export interface PublishSession {
  id: string;
  input: AssignedInput;
  protocol: PushProtocol;
  handle: PublishHandle;
  startedAt: Date;
  ended: boolean;
  /** Why the push failed; null while it goes on or when it ended cleanly. */
  failure: string | null;
  /** The reporter's sequence of the Ingestion report: a later Idle from the control plane is a Stop. */
  ingestionSeq: number;
  stoppedByControlPlane: boolean;
  firstFragmentAt: number | null;
  /** The push's tracks as ffprobe read them from its first fragment; null until then. */
  tracks: TrackInfo[] | null;
  reported: { bytesIn: number; bytesOut: number; at: number };
}

export interface ViewerSession {
  id: string;
  inputId: string;
  outputId: string;
  format: PlayFormat;
  ipAddress: string | null;
  startedAt: Date;
  bytesOut(): number;
  bytesIn(): number;
  kick(): void;
  ended: boolean;
  reported: { bytesIn: number; bytesOut: number; at: number };
}

export interface StreamManagerOptions {
  directory: InputDirectory;
  client: ControlPlaneClient;
  reporter: Reporter;
  log: Logger;
  hlsDir: string;
  ffmpeg: string;
  ffprobe: string;
  reconnectGraceMs: number;
  /** Reads the assigned inputs again now (a push may name a stream created since the last poll). */
  refreshDirectory?: () => Promise<void>;
}

type Refusal = { ok: false; reason: string; input?: AssignedInput };

const FORMAT_OF: Record<PushProtocol, InputFormat> = { RTMP: 'RTMP', SRT: 'SRT', WebRTC: 'WebRTC' };

/**
 * The live state of every input this node serves: who publishes (one push per input), who watches,
 * and what is reported. Front ends (RTMP via nginx, SRT, WHIP) ask `admitPush`, then `startPush`, and
 * call `endPush` when the push is over; players come through `admitPlay`/`startViewer`.
 */
export class StreamManager {
  private readonly pushes = new Map<string, PublishSession>();
  /** Inputs whose push ended, waiting out the reconnect grace before they are reported Idle or Error. */
  private readonly grace = new Map<string, { timer: NodeJS.Timeout; session: PublishSession }>();
  private readonly viewers = new Map<string, ViewerSession>();
  /** Viewer sessions that ended since the last usage report (their last bytes are still owed). */
  private endedViewers: ViewerSession[] = [];
  private endedPushes: PublishSession[] = [];
  private readonly clearedSeen = new Map<string, string | null>();
  private readonly snapshotters = new Map<string, Snapshotter>();
  private readonly dirtyOutputs = new Set<string>();
  private outputsTimer: NodeJS.Timeout | null = null;
  private readonly pushEndListeners: ((session: PublishSession) => void)[] = [];
  emergency = false;
  private lastTick = Date.now();

  constructor(private readonly o: StreamManagerOptions) {}

  // ------------------------------------------------------------------ pushes

  async admitPush(
    protocol: PushProtocol,
    name: string,
    token: string | null,
    remoteAddress: string | null,
  ): Promise<{ ok: true; input: AssignedInput } | Refusal> {
    let input = this.o.directory.input(name);
    if (!input && this.o.refreshDirectory) {
      await this.o.refreshDirectory();
      input = this.o.directory.input(name);
    }
    const from = remoteAddress ? ` from ${remoteAddress}` : '';
    if (!input) return { ok: false, reason: `no stream named ${normalizeName(name)} is served by this node` };
    if (this.emergency) return { ok: false, input, reason: `Push${from} refused: the node is in emergency cleanup` };
    if (input.format !== FORMAT_OF[protocol]) {
      return {
        ok: false,
        input,
        reason: `Push${from} refused: this stream takes ${input.format} pushes, not ${protocol}`,
      };
    }
    if (input.access !== 'Public' && !tokenMatches(input.accessToken, token)) {
      return { ok: false, input, reason: `Push${from} refused: ${token ? 'wrong' : 'missing'} access token` };
    }
    const current = this.pushes.get(input.id);
    if (current && !current.ended)
      return { ok: false, input, reason: `Push${from} refused: the stream is already being pushed` };
    return { ok: true, input };
  }

  /** Reports a refused push on the stream it named (when that stream is ours) and logs it. */
  refusePush(refusal: Refusal): void {
    this.o.log.info(`push refused: ${refusal.reason}`);
    if (refusal.input) this.state(refusal.input.id, { message: { level: 'warning', text: refusal.reason } });
  }

  startPush(input: AssignedInput, protocol: PushProtocol, handle: PublishHandle): PublishSession {
    const waiting = this.grace.get(input.id);
    if (waiting) {
      clearTimeout(waiting.timer);
      this.grace.delete(input.id);
    }
    const now = Date.now();
    const session: PublishSession = {
      id: randomUUID(),
      input,
      protocol,
      handle,
      startedAt: new Date(now),
      ended: false,
      failure: null,
      ingestionSeq: 0,
      stoppedByControlPlane: false,
      firstFragmentAt: null,
      tracks: null,
      reported: { bytesIn: 0, bytesOut: 0, at: now },
    };
    this.pushes.set(input.id, session);
    const from = handle.remoteAddress ? ` from ${handle.remoteAddress}` : '';
    session.ingestionSeq = this.state(input.id, {
      status: 'Ingestion',
      message: {
        level: 'info',
        text: waiting ? `Push resumed over ${protocol}${from}` : `Push started over ${protocol}${from}`,
      },
    });
    this.o.log.info(`push of ${input.name} started over ${protocol}${from}`);
    void this.watchFragments(session);
    return session;
  }

  /** The push is over: its last usage is reported now, its status after the reconnect grace. */
  endPush(session: PublishSession, failure: string | null = null): void {
    if (session.ended) return;
    session.ended = true;
    session.failure = failure;
    this.endedPushes.push(session);
    this.snapshotters.get(session.input.id)?.stop();
    this.snapshotters.delete(session.input.id);
    this.o.log.info(`push of ${session.input.name} ended${failure ? `: ${failure}` : ''}`);
    this.reportUsage();
    // The viewers' sessions end with the push (nginx drops RTMP players itself; HLS players may come back;
    // WebRTC viewers are closed by the listener).
    for (const viewer of [...this.viewers.values()]) if (viewer.inputId === session.input.id) this.endViewer(viewer.id);
    for (const listener of this.pushEndListeners) listener(session);
    if (this.pushes.get(session.input.id) === session) this.pushes.delete(session.input.id);
    if (session.stoppedByControlPlane) return;
    const timer = setTimeout(() => {
      this.grace.delete(session.input.id);
      if (this.pushes.has(session.input.id)) return;
      if (session.failure)
        this.state(session.input.id, {
          status: 'Error',
          message: { level: 'error', text: `Push failed: ${session.failure}` },
        });
      else this.state(session.input.id, { status: 'Idle', message: { level: 'info', text: 'Push ended' } });
    }, this.o.reconnectGraceMs);
    timer.unref();
    this.grace.set(session.input.id, { timer, session });
  }

  /** Calls `listener` whenever a push ends (after its viewers' sessions ended). */
  onPushEnd(listener: (session: PublishSession) => void): void {
    this.pushEndListeners.push(listener);
  }

  push(inputId: string): PublishSession | undefined {
    const session = this.pushes.get(inputId);
    return session && !session.ended ? session : undefined;
  }

  activePushes(): PublishSession[] {
    return [...this.pushes.values()].filter((session) => !session.ended);
  }

  // ------------------------------------------------------------------ viewers

  /** Whether a player may watch the output `name` in `format` (an unknown name re-reads the assigned inputs first). */
  async admitPlay(
    format: PlayFormat,
    name: string,
    token: string | null,
  ): Promise<
    | { ok: true; input: AssignedInput; outputId: string; push: PublishSession }
    | { ok: false; status: number; reason: string }
  > {
    let found = this.o.directory.output(name);
    if (!found && this.o.refreshDirectory) {
      // An output created since the last poll plays at once.
      await this.o.refreshDirectory();
      found = this.o.directory.output(name);
    }
    if (!found || found.output.format !== format)
      return { ok: false, status: 404, reason: `no ${format} output named ${name}` };
    if (this.emergency) return { ok: false, status: 503, reason: 'the node is in emergency cleanup' };
    if (!tokenMatches(found.output.accessToken, token))
      return { ok: false, status: 403, reason: `${token ? 'wrong' : 'missing'} playback token` };
    const push = this.push(found.input.id);
    if (!push) return { ok: false, status: 404, reason: 'the stream is not live' };
    return { ok: true, input: found.input, outputId: found.output.id, push };
  }

  startViewer(viewer: Omit<ViewerSession, 'ended' | 'reported' | 'startedAt'>): ViewerSession {
    const session: ViewerSession = {
      ...viewer,
      startedAt: new Date(),
      ended: false,
      reported: { bytesIn: 0, bytesOut: 0, at: Date.now() },
    };
    this.viewers.set(session.id, session);
    this.outputsChanged(session.inputId);
    return session;
  }

  endViewer(id: string): void {
    const session = this.viewers.get(id);
    if (!session || session.ended) return;
    session.ended = true;
    this.viewers.delete(id);
    this.endedViewers.push(session);
    this.outputsChanged(session.inputId);
  }

  viewer(id: string): ViewerSession | undefined {
    return this.viewers.get(id);
  }

  viewerCount(): number {
    return this.viewers.size;
  }

  // ------------------------------------------------------------------ control plane

  /**
   * The assigned inputs changed (polled every ~2 s): an input no longer ours, or Idle while we push
   * it (Stop in the console), loses its publisher; an output whose sessions were cleared loses its viewers.
   * `deliveredSeq` is the reporter's delivered sequence when the poll was sent.
   */
  reconcile(deliveredSeq: number): void {
    for (const session of this.activePushes()) {
      const input = this.o.directory.byId(session.input.id);
      if (!input) {
        session.stoppedByControlPlane = true;
        session.handle.kick();
        this.endPush(session);
        continue;
      }
      session.input = input;
      if (input.status === 'Idle' && session.ingestionSeq <= deliveredSeq) {
        this.o.log.info(`${input.name} was stopped from the control plane: disconnecting its publisher`);
        session.stoppedByControlPlane = true;
        session.handle.kick();
        this.endPush(session);
      }
    }
    for (const input of this.o.directory.all()) {
      for (const output of input.outputs as { id: string; sessionsClearedAt?: string | null }[]) {
        const cleared = output.sessionsClearedAt ?? null;
        const seen = this.clearedSeen.get(output.id);
        this.clearedSeen.set(output.id, cleared);
        if (seen === undefined || seen === cleared) continue;
        this.kickViewers((viewer) => viewer.outputId === output.id);
      }
    }
  }

  kickViewers(which: (viewer: ViewerSession) => boolean): number {
    let kicked = 0;
    for (const viewer of [...this.viewers.values()]) {
      if (!which(viewer)) continue;
      viewer.kick();
      this.endViewer(viewer.id);
      kicked++;
    }
    return kicked;
  }

  /** Emergency cleanup: every publisher and viewer goes; new ones are refused until it is disabled. */
  cleanup(): { pushes: number; viewers: number } {
    const viewers = this.kickViewers(() => true);
    const pushes = this.activePushes();
    for (const session of pushes) {
      session.handle.kick();
      this.endPush(session, 'the node was cleaned up by an administrator');
    }
    return { pushes: pushes.length, viewers };
  }

  /** The node stops: every push and viewer goes, and the pushed streams are reported Idle at once. */
  shutdown(): void {
    this.kickViewers(() => true);
    for (const session of this.activePushes()) {
      session.stoppedByControlPlane = true;
      session.handle.kick();
      this.endPush(session);
      this.state(session.input.id, {
        status: 'Idle',
        message: { level: 'warning', text: 'The node serving this stream stopped' },
      });
    }
    for (const { timer, session } of this.grace.values()) {
      clearTimeout(timer);
      this.state(session.input.id, {
        status: session.failure ? 'Error' : 'Idle',
        message: { level: 'info', text: 'Push ended' },
      });
    }
    this.grace.clear();
  }

  /** Tells the control plane again what the node knows: states of inputs with pushes, and every output's sessions. */
  resync(): number {
    const ours = new Set(this.activePushes().map((session) => session.input.id));
    for (const input of this.o.directory.all()) {
      if (ours.has(input.id)) {
        if (input.status !== 'Ingestion') this.state(input.id, { status: 'Ingestion' });
      } else if (input.status === 'Ingestion' && !this.grace.has(input.id)) {
        // Ingestion without a push here: left over from before this node (re)started.
        this.state(input.id, {
          status: 'Idle',
          message: { level: 'info', text: 'The node serving this stream restarted: no push is going on' },
        });
      }
      this.dirtyOutputs.add(input.id);
    }
    this.flushOutputs();
    return this.o.directory.all().length;
  }

  /** Usage, metrics and viewer bytes: called every report interval. */
  tick(): { bandwidthMbps: number; sessions: number } {
    const now = Date.now();
    const seconds = Math.max(0.001, (now - this.lastTick) / 1000);
    this.lastTick = now;
    const metrics = new Map<string, { values: Partial<Record<NodeMetricName, number>>; sessions: number }>();
    const entry = (inputId: string) => {
      let found = metrics.get(inputId);
      if (!found) {
        found = { values: { IncomingBitrate: 0, OutgoingBitrate: 0, ConcurrentViewers: 0 }, sessions: 0 };
        metrics.set(inputId, found);
      }
      return found;
    };
    let totalBytes = 0;
    for (const session of this.activePushes()) {
      const m = entry(session.input.id);
      const delta = session.handle.bytesIn() - session.reported.bytesIn;
      m.values.IncomingBitrate = Math.round((delta * 8) / seconds);
      m.sessions += 1;
      totalBytes += delta + session.handle.bytesOut() - session.reported.bytesOut;
    }
    for (const viewer of this.viewers.values()) {
      const m = entry(viewer.inputId);
      const delta = viewer.bytesOut() - viewer.reported.bytesOut;
      m.values.OutgoingBitrate = (m.values.OutgoingBitrate ?? 0) + Math.round((delta * 8) / seconds);
      m.values.ConcurrentViewers = (m.values.ConcurrentViewers ?? 0) + 1;
      m.sessions += 1;
      totalBytes += delta;
      this.dirtyOutputs.add(viewer.inputId);
    }
    this.reportUsage();
    const streams = [...metrics.entries()].map(([streamId, m]) => ({
      streamId,
      sessions: m.sessions,
      values: m.values,
    }));
    for (let i = 0; i < streams.length; i += 500)
      this.o.reporter.send({ kind: 'metrics', streams: streams.slice(i, i + 500) });
    this.flushOutputs();
    return {
      bandwidthMbps: (totalBytes * 8) / seconds / 1e6,
      sessions: this.activePushes().length + this.viewers.size,
    };
  }

  /** Usage deltas since the last report: each push's bytes and duration, each stream's viewer bytes. */
  reportUsage(): void {
    const now = Date.now();
    const byInput = new Map<
      string,
      {
        incoming: { sessionId: string; startedAt: string; duration: number; upload: number; download: number }[];
        out: { upload: number; download: number; duration: number };
      }
    >();
    const entry = (inputId: string) => {
      let found = byInput.get(inputId);
      if (!found) {
        found = { incoming: [], out: { upload: 0, download: 0, duration: 0 } };
        byInput.set(inputId, found);
      }
      return found;
    };
    for (const session of [...this.activePushes(), ...this.endedPushes]) {
      const bytesIn = session.handle.bytesIn();
      const bytesOut = session.handle.bytesOut();
      const upload = bytesIn - session.reported.bytesIn;
      const download = bytesOut - session.reported.bytesOut;
      const duration = Math.max(0, (now - session.reported.at) / 1000);
      if (upload === 0 && download === 0 && duration < 0.5) continue;
      session.reported = { bytesIn, bytesOut, at: now };
      entry(session.input.id).incoming.push({
        sessionId: session.id,
        startedAt: session.startedAt.toISOString(),
        duration,
        upload,
        download,
      });
    }
    this.endedPushes = [];
    for (const viewer of [...this.viewers.values(), ...this.endedViewers]) {
      const bytesIn = viewer.bytesIn();
      const bytesOut = viewer.bytesOut();
      const upload = bytesIn - viewer.reported.bytesIn;
      const download = bytesOut - viewer.reported.bytesOut;
      const duration = Math.max(0, (now - viewer.reported.at) / 1000);
      viewer.reported = { bytesIn, bytesOut, at: now };
      if (upload === 0 && download === 0) continue;
      const out = entry(viewer.inputId).out;
      out.upload += upload;
      out.download += download;
      out.duration = Math.max(out.duration, duration);
    }
    this.endedViewers = [];
    for (const [streamId, usage] of byInput) {
      this.o.reporter.send({
        kind: 'usage',
        streamId,
        ...(usage.incoming.length > 0 ? { incoming: usage.incoming } : {}),
        ...(usage.out.upload + usage.out.download > 0 ? { outgoing: usage.out } : {}),
      });
    }
  }

  // ------------------------------------------------------------------ reporting helpers

  /** Queues a stream-state report; answers the report's sequence number. */
  state(streamId: string, fields: Omit<StreamStateReport, 'id' | 'kind' | 'streamId' | 'at'>): number {
    return this.o.reporter.send({ kind: 'stream-state', streamId, at: new Date().toISOString(), ...fields });
  }

  private outputsChanged(inputId: string): void {
    this.dirtyOutputs.add(inputId);
    if (this.outputsTimer) return;
    this.outputsTimer = setTimeout(() => {
      this.outputsTimer = null;
      this.flushOutputs();
    }, 300);
    this.outputsTimer.unref();
  }

  /** The viewer sessions of every output of the inputs that changed, as the control plane shows them. */
  private flushOutputs(): void {
    for (const inputId of this.dirtyOutputs) {
      const input = this.o.directory.byId(inputId);
      if (!input) continue;
      const outputs = input.outputs.map((output) => ({
        outputId: output.id,
        sessions: [...this.viewers.values()]
          .filter((viewer) => viewer.outputId === output.id)
          .map((viewer) => ({
            id: viewer.id,
            ipAddress: viewer.ipAddress,
            startedAt: viewer.startedAt.toISOString(),
            bytes: viewer.bytesOut(),
          })),
      }));
      if (outputs.length > 0) this.state(inputId, { outputs });
    }
    this.dirtyOutputs.clear();
  }

  // ------------------------------------------------------------------ media: tracks and snapshots

  /** Newest complete HLS fragment of a push (the playlist lists only complete ones). */
  async latestFragment(session: PublishSession): Promise<string | null> {
    const dir = join(this.o.hlsDir, session.handle.rawName);
    try {
      const playlist = await readFile(join(dir, 'index.m3u8'), 'utf8');
      const fragments = playlist.split('\n').filter((line) => line && !line.startsWith('#'));
      const last = fragments[fragments.length - 1];
      if (!last) return null;
      const file = join(dir, last.trim());
      const info = await stat(file);
      // A playlist left from an earlier push of the same name is older than this push.
      return info.mtimeMs >= session.startedAt.getTime() - 1000 ? file : null;
    } catch {
      return null;
    }
  }

  /** Waits for the push's first fragment, reports its tracks, and starts the snapshots. */
  private async watchFragments(session: PublishSession): Promise<void> {
    while (!session.ended) {
      const fragment = await this.latestFragment(session);
      if (fragment) {
        session.firstFragmentAt = Date.now();
        const snapshotter = new Snapshotter(this, session, this.o);
        this.snapshotters.set(session.input.id, snapshotter);
        snapshotter.start();
        try {
          const tracks: TrackInfo[] = await probeTracks(this.o.ffprobe, fragment);
          session.tracks = tracks;
          if (!session.ended) this.state(session.input.id, { tracks: { incoming: tracks, outgoing: tracks } });
        } catch (error) {
          this.o.log.error(`probing ${session.input.name} failed: ${String(error)}`);
        }
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** Takes the snapshots of one push per its input's settings (re-read every 15 s). */
class Snapshotter {
  private timers: NodeJS.Timeout[] = [];
  private settingsTimer: NodeJS.Timeout | null = null;
  private busy = false;
  private current = '';
  private stopped = false;

  constructor(
    private readonly manager: StreamManager,
    private readonly session: PublishSession,
    private readonly o: StreamManagerOptions,
  ) {}

  start(): void {
    void this.refresh();
    this.settingsTimer = setInterval(() => void this.refresh(), 15_000);
    this.settingsTimer.unref();
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    if (this.settingsTimer) clearInterval(this.settingsTimer);
  }

  private async refresh(): Promise<void> {
    let settings: { incoming: SnapshotSettings | null; outgoing: SnapshotSettings | null };
    try {
      settings = await this.o.client.snapshotSettings(this.session.input.id);
    } catch (error) {
      this.o.log.debug(`snapshot settings of ${this.session.input.name}: ${String(error)}`);
      return;
    }
    const key = JSON.stringify(settings);
    if (this.stopped || key === this.current) return;
    this.current = key;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    for (const direction of ['incoming', 'outgoing'] as const) {
      const wanted = settings[direction];
      if (!wanted) continue;
      void this.take(direction, wanted);
      const timer = setInterval(() => void this.take(direction, wanted), wanted.interval * 1000);
      timer.unref();
      this.timers.push(timer);
    }
  }

  /** Without transcoding, what viewers get is what the streamer sends: both directions show the same picture. */
  private async take(direction: 'incoming' | 'outgoing', settings: SnapshotSettings): Promise<void> {
    if (this.busy || this.stopped) return;
    this.busy = true;
    try {
      const fragment = await this.manager.latestFragment(this.session);
      if (!fragment) return;
      const image = await snapshot(this.o.ffmpeg, fragment, settings);
      if (!this.stopped) {
        this.o.reporter.send({
          kind: 'snapshot',
          streamId: this.session.input.id,
          direction,
          at: new Date().toISOString(),
          image: image.toString('base64'),
        });
      }
    } catch (error) {
      this.o.log.error(`snapshot of ${this.session.input.name} failed: ${String(error)}`);
    } finally {
      this.busy = false;
    }
  }
}
