import { lastLine, spawnGuarded } from '../../child.js';
import type { NodeConfig } from '../../config.js';
import { playInputArgs } from '../../front-ends/rtmp/nginx.js';
import { RtmpProxy } from '../../front-ends/rtmp/proxy.js';
import type { LowLatencyPackagers } from '../../ll-hls/packagers.js';
import type { AssignedStream } from '../../streams/directory.js';
import type { LiveStream } from '../../streams/types.js';
import { dvrWindowSecondsOf } from '../low-latency-hls.js';
import type { SourceContext, SourceKind, StreamSource } from '../pipeline.js';
import { edgeLadder } from './ladder.js';
import { connectionOf, describePull, type Pull, type PullKind, type PullSource, pullName } from './pull.js';
import { RenditionPackaging, wantsLowLatency } from './rendition-packaging.js';

/**
 * How long a pull may take to publish here before its viewer is told the stream is not live: more than the
 * probe of a stream whose tracks the edge does not know (playInputArgs' bound, reached by a one-track stream).
 */
const PULL_START_TIMEOUT_MS = 15_000;
/** How often a pull looks for its viewers. */
const WATCH_INTERVAL_MS = 500;

export interface EdgePullerOptions {
  /** A pull with no viewer (and no preview) of its stream here this long stops. */
  idleMs: number;
  /** The node's LL-HLS packagers: a ladder's renditions pulled for a Low latency output are packaged into them. */
  lowLatency?: LowLatencyPackagers;
}

/** The edge puller as a pipeline kind of the node: a source of the streams it pulls from other nodes. */
export const edgePullerKind = ({
  config,
  lowLatency,
}: {
  config: Pick<NodeConfig, 'edgeIdleMs'>;
  lowLatency?: LowLatencyPackagers;
}): SourceKind<EdgePuller> => ({
  name: 'edge puller',
  create: (context) => new EdgePuller(context, { idleMs: config.edgeIdleMs, lowLatency }),
});

/** Why a pull stopped when its ffmpeg ended on its own: the origin's nginx dropped it (the push there ended). */
const ORIGIN_ENDED = 'the origin ended it';
const NODE_STOPPING = 'node stopping';

/** After an Internode pull ended or failed while its source still showed live, the next try waits this long. */
const INTERNODE_RETRY_MS = 2_000;
/**
 * After an edge pull ended before it published here (the origin refused the play: its push is gone, or in its
 * reconnect grace), viewers asking meanwhile are answered as if it had been refused again, without another
 * ffmpeg: an HLS player polls its playlist every second or so through the origin's grace.
 */
const REFUSED_RETRY_MS = 1_000;

/**
 * A node's pulls of streams from other nodes (the Internode path, docs/decisions.md). As an edge: when a viewer of an output assigned to this
 * node asks for a stream ingested on another node, one ffmpeg plays it from the origin's RTMP port with the
 * pull credential the control plane gave (`?edge=`), copied, and publishes it into this node's nginx-rtmp
 * under the stream id (`&edge=1`: the publish hook hands it to `published`). Every viewer of the stream here
 * then watches that one copy: RTMP and HLS from nginx, WebRTC and SRT from their feeds of the local stream.
 * The pull stops once the stream has had no viewer here for `idleMs` (or its outputs left this node), and
 * ends with the origin's push. Its bytes, counted by a relay in front of the origin, are internode usage.
 * A stream the origin transcodes (`edgeLadder`): its HLS viewers here get the origin's master, and each
 * variant they ask for is pulled on its own (`pullRendition`: the origin's rendition, published here under
 * the same name `<stream id>_<key>`), stopping `idleMs` after its variant was last asked for; the stream's
 * own pull then serves its other viewers only (RTMP, WebRTC, SRT: the top rendition). When an output here is Low
 * latency, a rendition's pull also packages it as that variant's LL-HLS (RenditionPackaging), and so does the pull of
 * a stream without a ladder (an output made Low after it started is packaged by the LL-HLS pipeline instead).
 * For an Internode stream this node ingests (`assigned.source`): the same pull of its source stream, made while
 * the control plane shows the source live and published as the Internode stream's push (protocol Internode:
 * Ingestion, its own outputs and jobs); it ends with the source's push, and a Stop holds it off until the
 * source's next push.
 */
export class EdgePuller implements StreamSource {
  /** By nginx name here: the stream id, or a rendition's `<stream id>_<key>`. */
  private readonly pulls = new Map<string, Pull>();
  /** Pulls being stopped, by name: a new pull of the name waits for the old one to leave nginx's name. */
  private readonly ending = new Map<string, Promise<void>>();
  /** Internode streams stopped by the control plane while their source is live: not pulled again until it ends. */
  private readonly held = new Set<string>();
  /**
   * When the next pull of a name may start: an Internode stream's after its last pull ended, an edge pull's
   * after a try that ended before it published (pruned by watch).
   */
  private readonly nextTryAt = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    /** The node's streams, its directory, tools and log; its meter bills the pulls' bytes as internode usage. */
    private readonly node: SourceContext,
    private readonly o: EdgePullerOptions,
  ) {
    this.timer = setInterval(() => this.watch(), WATCH_INTERVAL_MS);
    this.timer.unref();
    // A laddered stream's viewers here may be fed by its renditions' pulls alone (no pull of the stream whole).
    node.streams.pulledHere = (streamId) => this.receiving(streamId);
  }

  /** The stream pulled for a viewer here: starts the pull if none runs; undefined when it cannot be pulled. */
  async pull(assigned: AssignedStream): Promise<LiveStream | undefined> {
    const pull = await this.running(assigned, null);
    return pull && (await this.started(pull)) ? (pull.stream ?? undefined) : undefined;
  }

  /**
   * The rendition `key` of the origin's ladder pulled here for an HLS viewer (asking for its variant keeps it
   * pulled, also while `heldUntil` has not settled: a request held for its answer): when it started, once it is
   * published here; null when it cannot be pulled.
   */
  async pullRendition(assigned: AssignedStream, key: string, heldUntil?: Promise<unknown>): Promise<number | null> {
    if (!edgeLadder(assigned)?.some((rendition) => rendition.key === key)) return null;
    const pull = await this.running(assigned, key);
    if (pull && heldUntil) {
      pull.held++;
      void heldUntil.finally(() => {
        pull.held--;
        pull.lastWatchedAt = Date.now();
      });
    }
    return pull && (await this.started(pull)) ? pull.startedAt : null;
  }

  /** The pull's publish reached nginx (the publish hook): its stream is live here from now on. */
  published(name: string): boolean {
    const pull = this.pulls.get(name);
    if (!pull || pull.stopping || pull.live) return false;
    // The stream as the control plane shows it now, not as it was when the pull started: the node's pipelines load
    // their configuration from it once it is live, and hear only of later changes. An output made meanwhile (a Low
    // latency one, read for its first request while the pull still waited for the origin's keyframe) would
    // otherwise never be packaged (docs/chaos.md, "an LL-HLS output added on the edge never answered").
    pull.assigned = this.node.directory.byId(pull.assigned.id) ?? pull.assigned;
    if (pull.rendition === null) {
      const stream = this.startStream(pull);
      if (!stream) return false;
      pull.stream = stream;
    }
    pull.live = true;
    pull.lastWatchedAt = Date.now();
    // Metered from here, every byte since its connection opened: the origin admitted the play (ffmpeg publishes
    // only what it plays), and meters it from then as internode too; a play it refused is billed on neither node.
    pull.endMetering = this.node.meter({
      streamId: pull.assigned.id,
      // What the origin sent this node is its upload here; what this node sent back, its download.
      bytesIn: () => connectionOf(pull)?.bytesToClient ?? 0,
      bytesOut: () => connectionOf(pull)?.bytesFromClient ?? 0,
    });
    // The hook's answer is not yet nginx's stream (idle_streams off refuses a player sent to it before the
    // publish is in place): the viewers waiting for it are sent there once nginx accepted the publish, which
    // ffmpeg's first bytes after its publish command (sent before this hook was called) say: it sends nothing
    // more until nginx's NetStream.Publish.Start.
    const publishing = pull.publisher.connections[0];
    void (publishing?.nextFromClient() ?? Promise.resolve(false)).then((accepted) => {
      if (!accepted || pull.stopping) return;
      // The idle time counts from here.
      pull.lastWatchedAt = Date.now();
      pull.resolvePublished(true);
    });
    return true;
  }

  /** Whether an edge pull of the stream (whole, or one of its renditions) is live here: the origin still sends it. */
  receiving(streamId: string): boolean {
    for (const pull of this.pulls.values())
      if (pull.assigned.id === streamId && pull.kind === 'edge' && pull.live && !pull.stopping) return true;
    return false;
  }

  /** Whether a pull of the stream runs (tests and /metadata). */
  pulling(streamId: string): boolean {
    const pull = this.pulls.get(streamId);
    return pull !== undefined && !pull.stopping;
  }

  /** The pulls for /metadata (its `edgePulls`; `inputId` is the stream's id, the name that answer has always used). */
  describe(): Array<{
    inputId: string;
    kind: PullKind;
    rendition: string | null;
    source: string;
    origin: string;
    bytes: number;
  }> {
    return [...this.pulls.values()].map((pull) => ({
      inputId: pull.assigned.id,
      kind: pull.kind,
      rendition: pull.rendition,
      source: pull.from.name,
      origin: pull.from.nodeName,
      bytes: pull.connection?.bytesToClient ?? 0,
    }));
  }

  async stopAll(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.pulls.values()].map((pull) => this.stop(pull, NODE_STOPPING)));
  }

  /** The edge pull of the stream (or of its rendition `key`) going on, started now if none is. */
  private async running(assigned: AssignedStream, rendition: string | null): Promise<Pull | undefined> {
    if (!assigned.origin) return undefined;
    const name = pullName(assigned.id, rendition);
    const going = () => {
      const pull = this.pulls.get(name);
      return pull && !pull.stopping ? pull : undefined;
    };
    const running = going();
    if (running) {
      running.lastWatchedAt = Date.now();
      return running;
    }
    await this.ending.get(name);
    if ((this.nextTryAt.get(name) ?? 0) > Date.now()) return going();
    // Not gated on the status read here (it may be a poll old): the origin refuses a stream that is not live.
    return going() ?? (await this.start(assigned, 'edge', { ...assigned.origin, name: assigned.name }, rendition));
  }

  /** Whether the pull published here within the start timeout (waited for). */
  private started(pull: Pull): Promise<boolean> {
    const timeout = new Promise<false>((resolve) => {
      setTimeout(() => resolve(false), PULL_START_TIMEOUT_MS).unref();
    });
    return Promise.race([pull.published, timeout]);
  }

  /** The live stream a pull of a whole stream becomes here: an edge's pulled stream, or an Internode stream's push. */
  private startStream(pull: Pull): LiveStream | null {
    const connection = () => connectionOf(pull);
    const handle = {
      rawName: pull.assigned.id,
      remoteAddress: pull.from.hostname,
      bytesIn: () => connection()?.bytesToClient ?? 0,
      bytesOut: () => connection()?.bytesFromClient ?? 0,
      kick: () => {
        // A Stop of the Internode stream: it stays off while this push of its source lasts.
        if (pull.kind === 'internode') this.held.add(pull.assigned.id);
        void this.stop(pull, 'kicked');
      },
    };
    if (pull.kind === 'edge') return this.node.streams.startPulled(pull.assigned, pull.from.nodeName, handle);
    return this.node.streams.push(pull.assigned.id)
      ? null
      : this.node.streams.startPush(pull.assigned, 'Internode', handle);
  }

  private async start(
    assigned: AssignedStream,
    kind: PullKind,
    origin: PullSource,
    rendition: string | null = null,
  ): Promise<Pull> {
    const relay = new RtmpProxy(origin.rtmpPort, { host: origin.hostname, aliases: false });
    const name = pullName(assigned.id, rendition);
    const target = new URL(`${this.node.tools.rtmpUrl(name)}&edge=1`);
    const publisher = new RtmpProxy(Number(target.port), { host: target.hostname, aliases: false });
    let resolvePublished: (published: boolean) => void = () => undefined;
    const pull: Pull = {
      kind,
      from: origin,
      assigned,
      rendition,
      name,
      startedAt: Date.now(),
      live: false,
      relay,
      publisher,
      ffmpeg: null,
      connection: null,
      stream: null,
      published: new Promise((resolve) => {
        resolvePublished = resolve;
      }),
      resolvePublished: (published) => resolvePublished(published),
      endMetering: null,
      lastWatchedAt: Date.now(),
      stopping: false,
      stderr: '',
      packaging: null,
      held: 0,
    };
    // A ladder's rendition, or the stream pulled whole without a ladder (for its Low output and its other viewers):
    // packaged by this pull's own ffmpeg. The stream whole of a laddered one packages nothing (its variants do).
    const ladder = edgeLadder(assigned);
    const variants = rendition === null ? (ladder ? null : [null]) : ladder?.map((variant) => variant.key);
    if (kind === 'edge' && variants && this.o.lowLatency && wantsLowLatency(assigned)) {
      pull.packaging = new RenditionPackaging(this.o.lowLatency, assigned.id, rendition, variants);
      pull.packaging.follow(assigned);
    }
    this.pulls.set(name, pull);
    const port = await relay.listen(0, '127.0.0.1');
    target.port = String(await publisher.listen(0, '127.0.0.1'));
    const query = new URLSearchParams({ edge: origin.credential, ...(rendition === null ? {} : { rendition }) });
    const source = `rtmp://127.0.0.1:${port}/live/${encodeURIComponent(origin.name)}?${query}`;
    const ffmpeg = spawnGuarded(this.node.tools.ffmpeg, [
      '-hide_banner',
      '-nostats',
      '-loglevel',
      'error',
      // Its probe ends a few frames after the origin's first keyframe (audio comes before it: the origin's nginx
      // does not hold it), so ffmpeg publishes here while that first GOP still arrives: the first fragment closes
      // with the second keyframe, not a publish handshake later. Not `-fflags nobuffer`: it drops the probed
      // packets, that first keyframe among them, and so a whole GOP. The edge does not know the origin's tracks:
      // a one-track stream's probe lasts its whole bound (playInputArgs), within PULL_START_TIMEOUT_MS.
      ...playInputArgs(source, null),
      '-map',
      '0:v?',
      '-map',
      '0:a?',
      '-c',
      'copy',
      '-f',
      'flv',
      target.toString(),
      ...(pull.packaging ? RenditionPackaging.args : []),
    ]);
    pull.ffmpeg = ffmpeg;
    pull.packaging?.attach(ffmpeg, (failure) => {
      this.node.log.error(`LL-HLS packaging of ${describePull(pull)} failed: ${failure}`);
      void this.stop(pull, 'its LL-HLS packaging failed');
    });
    ffmpeg.stderr.on('data', (chunk: Buffer) => {
      pull.stderr = (pull.stderr + chunk.toString()).slice(-2000);
    });
    const what = describePull(pull);
    this.node.log.info(`pulling ${what} from node ${origin.nodeName} (${origin.hostname}:${origin.rtmpPort})`);
    void ffmpeg.exited.then((code) => {
      if (!pull.stopping && !pull.live)
        this.node.log.error(`pulling ${what} from node ${origin.nodeName} failed (${code}): ${lastLine(pull.stderr)}`);
      void this.stop(pull, pull.stopping ? 'stopped' : ORIGIN_ENDED);
    });
    return pull;
  }

  /** Stops the pull: ffmpeg, the relay, the metering (its last bytes are reported next), the stream here. */
  private stop(pull: Pull, reason: string): Promise<void> {
    if (this.pulls.get(pull.name) === pull) this.pulls.delete(pull.name);
    if (pull.stopping) return this.ending.get(pull.name) ?? Promise.resolve();
    pull.stopping = true;
    if (pull.kind === 'internode') this.nextTryAt.set(pull.name, Date.now() + INTERNODE_RETRY_MS);
    else if (!pull.live) this.nextTryAt.set(pull.name, Date.now() + REFUSED_RETRY_MS);
    connectionOf(pull);
    // The stream ends here at once (a viewer arriving now starts a new pull, once this one let go of nginx).
    pull.resolvePublished(false);
    if (pull.stream) this.node.streams.endPush(pull.stream, null, { byOrigin: reason === ORIGIN_ENDED });
    pull.packaging?.stop({ keep: reason === ORIGIN_ENDED || reason === NODE_STOPPING });
    const ended = (async () => {
      await pull.ffmpeg?.stop();
      await Promise.all([pull.relay.close(), pull.publisher.close()]);
      pull.endMetering?.();
      this.node.log.info(`stopped pulling ${describePull(pull)}: ${reason}`);
    })();
    this.ending.set(pull.name, ended);
    void ended.finally(() => {
      if (this.ending.get(pull.name) === ended) this.ending.delete(pull.name);
    });
    return ended;
  }

  /**
   * Stops the edge pulls without a viewer here for `idleMs` (a rendition's: its variant not asked for), and
   * those whose outputs (or rendition) are no longer this node's; stops the Internode pulls whose source is no
   * longer live (or no longer theirs), and starts those of the Internode streams here whose source is live.
   */
  private watch(): void {
    const now = Date.now();
    for (const [name, at] of this.nextTryAt) if (at <= now) this.nextTryAt.delete(name);
    // A laddered stream's HLS viewers watch its renditions' pulls, not the stream's own.
    const watched = new Set(
      this.node.streams.viewers
        .all()
        .filter((viewer) => viewer.format !== 'HLS' || !this.laddered(viewer.streamId))
        .map((viewer) => viewer.streamId),
    );
    for (const pull of this.pulls.values()) {
      const assigned = this.node.directory.byId(pull.assigned.id);
      if (pull.kind === 'internode') {
        if (!assigned?.source?.live || assigned.source.inputId !== pull.assigned.source?.inputId)
          void this.stop(pull, 'its source is not live');
        else if (!pull.live && now - pull.lastWatchedAt >= PULL_START_TIMEOUT_MS)
          void this.stop(pull, 'it did not start in time');
        continue;
      }
      if (!assigned?.origin) {
        void this.stop(pull, 'its outputs are no longer served here');
        continue;
      }
      if (pull.rendition !== null && !edgeLadder(assigned)?.some((rendition) => rendition.key === pull.rendition)) {
        void this.stop(pull, 'the origin no longer serves that rendition');
        continue;
      }
      // An output made Low latency (or no longer): the variant's next request pulls it again, packaged or not.
      if (pull.rendition !== null && this.o.lowLatency && (pull.packaging !== null) !== wantsLowLatency(assigned)) {
        void this.stop(pull, "its outputs' latency changed");
        continue;
      }
      if (!pull.live) {
        // Still starting (ffmpeg probing the origin's stream): viewers wait for it, up to the start timeout.
        if (now - pull.lastWatchedAt >= PULL_START_TIMEOUT_MS) void this.stop(pull, 'it did not start in time');
        continue;
      }
      // The stream pulled whole, packaged while it had no ladder: the origin's ladder came, and its variants' pulls
      // package it here now (a key-null variant would retire theirs). Its viewers of RTMP, WebRTC or SRT keep it.
      if (pull.rendition === null && pull.packaging && edgeLadder(assigned)) {
        pull.packaging.detach();
        pull.packaging = null;
      }
      pull.packaging?.follow(assigned);
      const viewed = (pull.rendition === null && watched.has(pull.assigned.id)) || pull.held > 0;
      if (viewed || keepsWindow(assigned)) pull.lastWatchedAt = now;
      else if (now - pull.lastWatchedAt >= this.o.idleMs) void this.stop(pull, 'no viewer left');
    }
    for (const assigned of this.node.directory.all()) {
      if (keepsWindow(assigned)) this.keepPulled(assigned, now);
      if (!assigned.source?.live) {
        this.held.delete(assigned.id);
        continue;
      }
      const blocked =
        this.pulls.has(assigned.id) ||
        this.ending.has(assigned.id) ||
        this.held.has(assigned.id) ||
        (this.nextTryAt.get(assigned.id) ?? 0) > now ||
        this.node.streams.push(assigned.id) !== undefined;
      if (!blocked) void this.start(assigned, 'internode', assigned.source);
    }
  }

  /**
   * A stream whose rewind window this edge keeps: pulled (a ladder's every rendition, packaged) from when the control
   * plane shows it live until its origin ends the pull, with or without viewers — a window made only while someone
   * watched would have holes where nobody did. The origin refuses a stream that is not live (a read up to one poll
   * old): a refused try waits REFUSED_RETRY_MS, as a viewer's would.
   */
  private keepPulled(assigned: AssignedStream, now: number): void {
    const names = (edgeLadder(assigned)?.map((rendition) => rendition.key) ?? [null]).filter((rendition) => {
      const name = pullName(assigned.id, rendition);
      return !this.pulls.has(name) && !this.ending.has(name) && (this.nextTryAt.get(name) ?? 0) <= now;
    });
    for (const rendition of names) void this.running(assigned, rendition);
  }

  private laddered(streamId: string): boolean {
    const assigned = this.node.directory.byId(streamId);
    return assigned !== undefined && edgeLadder(assigned) !== null;
  }
}

/**
 * Whether this edge keeps the stream's rewind window now: it serves a Low latency output of it with a window, and the
 * stream is live at its origin (an Internode stream's own pull is not an edge's).
 */
const keepsWindow = (assigned: AssignedStream): boolean =>
  assigned.origin !== null && assigned.status === 'Ingestion' && dvrWindowSecondsOf(assigned) > 0;
