import type { AssignedInput } from '@streamcloud/contract';
import { type GuardedChild, lastLine, spawnGuarded } from '../child.js';
import { fmp4OutputArgs, type LowLatencyPackager } from '../ll-hls/packager.js';
import { type LowLatencyPackagers, PART_SECONDS } from '../ll-hls/packagers.js';
import type { LiveStream } from '../streams/types.js';
import type { Pipeline, PipelineContext, PipelineKind, StopReason } from './pipeline.js';

/** While the push goes on, a packaging ffmpeg that ended starts again after this, at most this many times in a row. */
const RESPAWN_DELAY_MS = 500;
const MAX_QUICK_RESPAWNS = 5;
/** An ffmpeg that ran this long before it ended was not failing: its count of quick respawns starts again. */
const HEALTHY_RUN_MS = 10_000;

export interface LowLatencyConfig {
  /** The largest rewind window of the stream's Low latency outputs, seconds (0: none). */
  dvrWindowSeconds: number;
}

/** Whether an output of the input is an HLS output with Low latency (it needs the stream packaged as LL-HLS). */
export const isLowLatencyHls = (output: AssignedInput['outputs'][number]): boolean =>
  output.format === 'HLS' && output.hlsLatency === 'Low';

/** The LL-HLS packaging of a live stream: runs while one of its outputs is an HLS output with Low latency. */
export const lowLatencyHlsKind = (packagers: LowLatencyPackagers): PipelineKind<LowLatencyConfig> => ({
  name: 'LL-HLS packager',
  part: 'outputs',
  // An edge packages the stream it pulls itself: its viewers block on its own parts, one hop from the push.
  alsoOnEdges: true,
  async load(input) {
    const outputs = input.outputs.filter(isLowLatencyHls);
    if (outputs.length === 0) return null;
    return { dvrWindowSeconds: 60 * Math.max(0, ...outputs.map((output) => output.dvrWindowMinutes ?? 0)) };
  },
  create: (context) => new LowLatencyHls(context, packagers),
  shutdown: () => packagers.close(),
});

/** How often the pipeline looks whether what HLS viewers get changed (the transcoder's renditions came or went). */
const SOURCE_CHECK_MS = 1000;

/** What one packaging ffmpeg plays: a ladder's variant (its rendition key), or the stream as one (key null). */
interface Source {
  key: string | null;
  rtmpName: string;
}

/** What the stream's HLS viewers get now: its ladder's variants, or one source; none while the renditions start. */
function sourcesOf(stream: LiveStream): Source[] {
  const { renditions, main } = stream.outgoing;
  if (renditions === null) return [{ key: null, rtmpName: main.rtmpName }];
  return renditions.map((rendition) => ({ key: rendition.key, rtmpName: rendition.rtmpName }));
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
    if (this.stream) this.packagers.setDvr(this.stream.input.id, config.dvrWindowSeconds);
  }

  async stop(reason: StopReason): Promise<void> {
    if (this.watcher) clearInterval(this.watcher);
    this.watcher = null;
    const runs = this.runs;
    this.runs = [];
    await Promise.all(runs.map((run) => run.stop()));
    // A push that ended keeps its playlists through the reconnect grace (LowLatencyPackagers); otherwise they go.
    if (reason !== 'push ended' && this.stream) this.packagers.forget(this.stream.input.id);
  }

  describe(): Record<string, unknown> {
    const inputId = this.stream?.input.id ?? '';
    const variants = this.runs.map((run) => run.source.key);
    const bytes = variants.reduce((sum, key) => sum + (this.packagers.of(inputId, key)?.memoryBytes() ?? 0), 0);
    return { variants, memoryBytes: bytes };
  }

  /** Brings the runs in line with what viewers get now. */
  private follow(): void {
    const stream = this.stream;
    if (!stream) return;
    const sources = sourcesOf(stream);
    const playing = JSON.stringify(sources);
    if (playing === this.playing) return;
    this.playing = playing;
    for (const run of this.runs) void run.stop();
    const keys = sources.map((source) => source.key);
    this.runs = sources.map(
      (source) => new VariantRun(this.context, stream, source, () => this.begin(stream, source.key, keys)),
    );
    for (const run of this.runs) run.spawn();
  }

  private begin(stream: LiveStream, key: string | null, keys: (string | null)[]) {
    const packager = this.packagers.begin(stream.input.id, key, keys);
    this.packagers.setDvr(stream.input.id, this.config.dvrWindowSeconds);
    return packager;
  }
}

/** One variant's packaging ffmpeg, started again (in a new period) when it ends while the push goes on. */
class VariantRun {
  private ffmpeg: GuardedChild | null = null;
  private stopped = false;
  private quickRespawns = 0;
  private respawn: NodeJS.Timeout | null = null;

  constructor(
    private readonly context: PipelineContext,
    private readonly stream: LiveStream,
    readonly source: Source,
    private readonly begin: () => LowLatencyPackager,
  ) {}

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.respawn) clearTimeout(this.respawn);
    const ffmpeg = this.ffmpeg;
    this.ffmpeg = null;
    await ffmpeg?.stop();
  }

  spawn(): void {
    if (this.stopped) return;
    const { stream, source } = this;
    const { tools, log } = this.context;
    const packager = this.begin();
    const ffmpeg = spawnGuarded(tools.ffmpeg, [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      // nginx starts a player at a keyframe with the codec headers first: a short probe finds both tracks.
      '-analyzeduration',
      '500000',
      '-rtmp_live',
      'live',
      '-i',
      tools.rtmpUrl(source.rtmpName),
      '-map',
      '0:v?',
      '-map',
      '0:a?',
      ...fmp4OutputArgs(PART_SECONDS),
    ]);
    this.ffmpeg = ffmpeg;
    const startedAt = Date.now();
    let stderr = '';
    ffmpeg.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    ffmpeg.stdout.on('data', (chunk: Buffer) => {
      if (this.ffmpeg !== ffmpeg) return;
      try {
        packager.write(chunk);
      } catch (error) {
        log.error(`LL-HLS packaging of ${stream.input.name} failed: ${String(error)}`);
        void ffmpeg.stop();
      }
    });
    void ffmpeg.exited.then(() => {
      if (this.stopped || this.ffmpeg !== ffmpeg) return;
      this.ffmpeg = null;
      if (Date.now() - startedAt >= HEALTHY_RUN_MS) this.quickRespawns = 0;
      if (++this.quickRespawns > MAX_QUICK_RESPAWNS) {
        this.context.reporter.message(
          'error',
          `Low-latency HLS packaging stopped: ${lastLine(stderr) || 'its ffmpeg kept ending'}`,
        );
        return;
      }
      this.respawn = setTimeout(() => {
        this.respawn = null;
        this.spawn();
      }, RESPAWN_DELAY_MS);
      this.respawn.unref();
    });
  }
}
