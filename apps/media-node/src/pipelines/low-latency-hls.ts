import type { TrackInfo } from '@streamcloud/contract';
import { type PackagerInput, packagerInputOf } from '../ll-hls/input/choose.js';
import { ffmpegInput } from '../ll-hls/input/ffmpeg-input.js';
import { type RemuxClock, rtmpInput } from '../ll-hls/input/rtmp-input.js';
import type { LowLatencyPackager } from '../ll-hls/packager.js';
import type { LowLatencyPackagers } from '../ll-hls/packagers.js';
import type { AssignedStream } from '../streams/directory.js';
import type { LiveStream } from '../streams/types.js';
import { awaitingRenditions, tracksOf } from './capture.js';
import { edgeLadder } from './edge/ladder.js';
import type { Pipeline, PipelineContext, PipelineKind, StopReason } from './pipeline.js';
import { type SupervisedRun, Supervisor } from './supervisor.js';

export interface LowLatencyConfig {
  /** The largest rewind window of the stream's Low latency outputs, seconds (0: none). */
  dvrWindowSeconds: number;
}

/** Whether an output of the stream is an HLS output with Low latency (it needs the stream packaged as LL-HLS). */
export const isLowLatencyHls = (output: AssignedStream['outputs'][number]): boolean =>
  output.format === 'HLS' && output.hlsLatency === 'Low';

/** The largest rewind window of the stream's Low latency outputs listed to this node, seconds (0: none). */
export const dvrWindowSecondsOf = (assigned: AssignedStream): number =>
  60 * Math.max(0, ...assigned.outputs.filter(isLowLatencyHls).map((output) => output.dvrWindowMinutes ?? 0));

/** The LL-HLS packaging of a live stream: runs while one of its outputs is an HLS output with Low latency. */
export const lowLatencyHlsKind = ({
  lowLatency,
}: {
  lowLatency: LowLatencyPackagers;
}): PipelineKind<LowLatencyConfig> => ({
  name: 'LL-HLS packager',
  part: 'outputs',
  // An edge packages the stream it pulls itself: its viewers block on its own parts, one hop from the push.
  alsoOnEdges: true,
  async load(assigned) {
    if (!assigned.outputs.some(isLowLatencyHls)) return null;
    return { dvrWindowSeconds: dvrWindowSecondsOf(assigned) };
  },
  create: (context) => new LowLatencyHls(context, lowLatency),
  shutdown: () => lowLatency.close(),
});

/** How long a variant waits for its tracks' probe before it is packaged by ffmpeg without it. */
const PROBE_WAIT_MS = 10_000;

/** How often the pipeline looks whether what HLS viewers get changed (the transcoder's renditions came or went). */
const SOURCE_CHECK_MS = 1000;

/** What one packaging ffmpeg plays: a ladder's variant (its rendition key), or the stream as one (key null). */
interface Source {
  key: string | null;
  rtmpName: string;
}

/**
 * What the stream's HLS viewers get now: its ladder's variants, or one source; none while the renditions start —
 * also before the push's tracks are known (the transcoder has not started yet): packaging the push then would end
 * the variants a reconnecting push's viewers play (LowLatencyPackagers.begin retires those not packaged), and they
 * would find no playlist until the ladder is back. On an edge, a laddered stream's variants are packaged by their
 * rendition pulls (pipelines/edge/rendition-packaging.ts): the stream pulled whole (for its other viewers) is none.
 * Without a ladder, an edge's pull packages the stream itself when it had its Low output as it started (`follow`).
 */
function sourcesOf(stream: LiveStream): Source[] {
  if (awaitingRenditions(stream) || (stream.pulledFrom !== null && edgeLadder(stream.assigned) !== null)) return [];
  const { renditions, main } = stream.outgoing;
  if (renditions === null) return [{ key: null, rtmpName: main.rtmpName }];
  return renditions.map((rendition) => ({ key: rendition.key, rtmpName: rendition.rtmpName }));
}

/** The tracks of what `source` plays, as probed; null when not known yet. */
function tracksOfSource(stream: LiveStream, source: Source): readonly TrackInfo[] | null {
  const { renditions, main } = stream.outgoing;
  const origin = source.key === null ? main : renditions?.find((rendition) => rendition.key === source.key);
  return origin ? tracksOf(stream, origin) : null;
}

/**
 * The LL-HLS packaging of a live stream: one ffmpeg per variant of what its HLS viewers get (the push, or each
 * rendition of its ladder) plays it from nginx-rtmp and writes it, copied, as fragmented MP4 to its stdout; the
 * variant's packager cuts that into parts and segments (ll-hls/packager.ts). When the sources change (the
 * transcoder's renditions come or go) the runs follow them, each in a new period of its playlist.
 */
class LowLatencyHls implements Pipeline<LowLatencyConfig> {
  private stream: LiveStream | null = null;
  private config: LowLatencyConfig = { dvrWindowSeconds: 0 };
  private runs: VariantRun[] = [];
  private playing = '';
  private watcher: NodeJS.Timeout | null = null;

  constructor(
    private readonly context: PipelineContext,
    private readonly packagers: LowLatencyPackagers,
  ) {}

  start(stream: LiveStream, config: LowLatencyConfig): void {
    this.stream = stream;
    this.config = config;
    this.follow();
    this.watcher = setInterval(() => this.follow(), SOURCE_CHECK_MS);
    this.watcher.unref();
  }

  /** The packaging is the same for every Low latency output; only the rewind window kept may change. */
  update(config: LowLatencyConfig): void {
    this.config = config;
    if (this.stream) this.packagers.setDvr(this.stream.assigned.id, config.dvrWindowSeconds);
  }

  async stop(reason: StopReason): Promise<void> {
    if (this.watcher) clearInterval(this.watcher);
    this.watcher = null;
    const runs = this.runs;
    this.runs = [];
    await Promise.all(runs.map((run) => run.stop()));
    // A push that ended keeps its playlists through the reconnect grace (LowLatencyPackagers); a node that stops
    // keeps its rewind windows on disk for its next run; otherwise they go.
    if (!this.stream || reason === 'push ended') return;
    if (reason === 'node stopping') this.packagers.release(this.stream.assigned.id);
    else this.packagers.forget(this.stream.assigned.id);
  }

  /**
   * Each variant as packaged (its codecs and picture from its init segment), how its fMP4 is made (`input`) and what
   * it holds in memory.
   */
  describe(): Record<string, unknown> {
    const streamId = this.stream?.assigned.id ?? '';
    const variants = this.runs.map(({ source, input }) => {
      const packager = this.packagers.of(streamId, source.key);
      return {
        key: source.key,
        input,
        codecs: packager?.codecs() ?? null,
        resolution: packager?.resolution() ?? null,
        memoryBytes: packager?.memoryBytes() ?? 0,
      };
    });
    return { variants };
  }

  /** Brings the runs in line with what viewers get now. */
  private follow(): void {
    const stream = this.stream;
    if (!stream) return;
    // On an edge, the pull's own ffmpeg packages the stream when it had a Low output as it started (not one made
    // Low since): one process and one probe less before its first part (docs/chaos.md).
    const fed = (source: Source) =>
      stream.pulledFrom !== null && this.packagers.fedByPull(stream.assigned.id, source.key);
    const sources = sourcesOf(stream).filter((source) => !fed(source) && !this.awaitingProbe(stream, source));
    const playing = JSON.stringify(sources);
    if (playing === this.playing) return;
    this.playing = playing;
    for (const run of this.runs) void run.stop();
    const keys = sources.map((source) => source.key);
    this.runs = sources.map(
      (source) =>
        new VariantRun(this.context, stream, source, this.packagers.remux, () => this.begin(stream, source.key, keys)),
    );
    for (const run of this.runs) run.spawn();
  }

  /**
   * Whether a variant waits for the probe of its tracks (the push's first HLS fragment, ~1–2 s): the input is chosen
   * by them (ll-hls/input/choose.ts), and an ffmpeg started meanwhile would package the whole push. Not past
   * PROBE_WAIT_MS from the push's start (a probe that failed): ffmpeg then probes it itself. Not on an edge: there
   * the stream pulled whole plays meanwhile (edge.test's ladder lost its rendition pulls when it waited).
   */
  private awaitingProbe(stream: LiveStream, source: Source): boolean {
    if (!this.packagers.remux || stream.pulledFrom !== null || tracksOfSource(stream, source) !== null) return false;
    return Date.now() - stream.startedAt.getTime() < PROBE_WAIT_MS;
  }

  private begin(stream: LiveStream, key: string | null, keys: (string | null)[]) {
    const packager = this.packagers.begin(stream.assigned.id, key, keys);
    this.packagers.setDvr(stream.assigned.id, this.config.dvrWindowSeconds);
    return packager;
  }
}

/**
 * One variant's packaging, kept running by the pipelines' Supervisor: its fMP4 made in the node's own process from an
 * RTMP play of nginx when the variant is H.264/AAC, by an ffmpeg of its own otherwise (ll-hls/input/choose.ts).
 * Started again (in a new period) when it ends while the push goes on — nginx ends a play cleanly when what it plays
 * changes — with backoff after failures, and given up (said in the stream's messages) after three failures in a
 * minute.
 */
class VariantRun {
  private readonly supervisor: Supervisor;
  /** The in-process remuxer's clock, kept rising across the runs (each a new period). */
  private readonly clock: RemuxClock = { nextStartMs: 0 };
  private current: PackagerInput | null = null;

  constructor(
    private readonly context: PipelineContext,
    private readonly stream: LiveStream,
    readonly source: Source,
    private readonly remux: boolean,
    private readonly begin: () => LowLatencyPackager,
  ) {
    this.supervisor = new Supervisor({
      run: () => this.run(),
      onGiveUp: (failure) => context.reporter.message('error', `Low-latency HLS packaging stopped: ${failure}`),
    });
  }

  /** How the current run makes the variant's fMP4 (before the first run: how it will, from the probe). */
  get input(): PackagerInput {
    return this.current ?? packagerInputOf(tracksOfSource(this.stream, this.source), this.remux);
  }

  spawn(): void {
    this.supervisor.start();
  }

  stop(): Promise<void> {
    return this.supervisor.stop();
  }

  private run(): SupervisedRun {
    const { stream, source } = this;
    const { tools, log } = this.context;
    const packager = this.begin();
    const tracks = tracksOfSource(stream, source);
    const url = tools.rtmpUrl(source.rtmpName);
    const write = (chunk: Buffer) => {
      try {
        packager.write(chunk);
      } catch (error) {
        log.error(`LL-HLS packaging of ${stream.assigned.name} failed: ${String(error)}`);
        throw error;
      }
    };
    this.current = packagerInputOf(tracks, this.remux);
    if (tracks && this.current === 'in-process') return rtmpInput(url, tracks, this.clock, write);
    return ffmpegInput(tools.ffmpeg, url, tracks, write);
  }
}
