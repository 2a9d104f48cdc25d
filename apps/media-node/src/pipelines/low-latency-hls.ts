import type { AssignedInput } from '@streamcloud/contract';
import { type GuardedChild, lastLine, spawnGuarded } from '../child.js';
import { fmp4OutputArgs } from '../ll-hls/packager.js';
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

/**
 * One ffmpeg per live stream plays what its viewers get from nginx-rtmp (the push, or the transcoder's top
 * rendition) and writes it, copied, as fragmented MP4 to its stdout; the stream's packager cuts that into
 * LL-HLS parts and segments (ll-hls/packager.ts). When what it plays ends (nginx ends its players when the
 * transcoder's renditions come or go) it starts again on the current source, in a new period of the playlist.
 */
class LowLatencyHls implements Pipeline<LowLatencyConfig> {
  private stream: LiveStream | null = null;
  private ffmpeg: GuardedChild | null = null;
  private stopped = false;
  private quickRespawns = 0;
  private respawn: NodeJS.Timeout | null = null;

  constructor(
    private readonly context: PipelineContext,
    private readonly packagers: LowLatencyPackagers,
  ) {}

  private config: LowLatencyConfig = { dvrWindowSeconds: 0 };

  start(stream: LiveStream, config: LowLatencyConfig): void {
    this.stream = stream;
    this.config = config;
    this.spawn();
  }

  /** The packaging is the same for every Low latency output; only the rewind window kept may change. */
  update(config: LowLatencyConfig): void {
    this.config = config;
    if (this.stream) this.packagers.setDvr(this.stream.input.id, config.dvrWindowSeconds);
  }

  async stop(reason: StopReason): Promise<void> {
    this.stopped = true;
    if (this.respawn) clearTimeout(this.respawn);
    const ffmpeg = this.ffmpeg;
    this.ffmpeg = null;
    await ffmpeg?.stop();
    // A push that ended keeps its playlist through the reconnect grace (LowLatencyPackagers); otherwise it goes.
    if (reason !== 'push ended' && this.stream) this.packagers.forget(this.stream.input.id);
  }

  describe(): Record<string, unknown> {
    const packager = this.stream ? this.packagers.of(this.stream.input.id) : null;
    return { memoryBytes: packager?.memoryBytes() ?? 0, lastPart: packager?.lastPart() ?? null };
  }

  private spawn(): void {
    const stream = this.stream;
    if (!stream || this.stopped) return;
    const { tools, log } = this.context;
    const packager = this.packagers.begin(stream.input.id);
    this.packagers.setDvr(stream.input.id, this.config.dvrWindowSeconds);
    const source = stream.outgoing.main;
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
