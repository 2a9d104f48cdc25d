import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TrackInfo, TranscodeConfig } from '@streamcloud/contract';
import { type GuardedChild, lastLine, spawnGuarded } from '../../child.js';
import type { ControlPlaneClient } from '../../control-plane.js';
import { type ProbedTrack, probeFragment, trackInfos, videoCodingOf } from '../../probe.js';
import { newestFragment, poll } from '../../streams/fragments.js';
import type { LiveStream, Rendition } from '../../streams/types.js';
import type { Pipeline, PipelineContext, PipelineKind, StopReason } from '../pipeline.js';
import { type SupervisedRun, Supervisor } from '../supervisor.js';
import { transcoderArgs } from './command.js';
import { describeRendition, hasLadder, type LadderPlan, planLadder, type RenditionPlan } from './plan.js';
import { SpeedMeter } from './speed.js';

/** The transcoder of adjustable-transcode streams whose configuration has a ladder. */
export const transcoderKind = ({
  client,
}: {
  client: Pick<ControlPlaneClient, 'transcodeConfig'>;
}): PipelineKind<TranscodeConfig> => ({
  name: 'transcoder',
  part: 'config',
  async load(assigned) {
    if (assigned.outputMode !== 'AdjustableTranscode') return null;
    const config = await client.transcodeConfig(assigned.id);
    return hasLadder(config) || config.scte35.mode !== 'None' ? config : null;
  },
  create: (context) => new Transcoder(context),
});

const SCTE35_NOTE =
  'Ad markers (SCTE-35) are not carried: this node repackages every push through RTMP (FLV), which has no ' +
  'SCTE-35, so the ad-marker mode acts as None';

/**
 * One ffmpeg per live stream: decodes the push once, draws the overlay and the epoch time, and encodes
 * every rendition of the ladder, each published back into nginx-rtmp as `<stream id>_<key>` (which gives
 * it HLS fragments and RTMP playback). Once every rendition has a fragment, the stream's viewers get the
 * renditions (HLS: a master playlist; RTMP, WebRTC, the outgoing snapshot: the top one) and its outgoing
 * tracks are what ffprobe reads from them. The ffmpeg is restarted with backoff when it ends; after three
 * failures within a minute the stream gets an Error message with ffmpeg's reason and its viewers get the
 * push as it came.
 */
class Transcoder implements Pipeline<TranscodeConfig> {
  private stream: LiveStream | null = null;
  private supervisor: Supervisor | null = null;
  private plan: LadderPlan | null = null;
  private speed: SpeedMeter | null = null;
  private workDir: string | null = null;
  private stopped = false;

  constructor(private readonly context: PipelineContext) {}

  async start(stream: LiveStream, config: TranscodeConfig): Promise<void> {
    this.stream = stream;
    await this.run(stream, config);
  }

  /** A new configuration (saved while the push goes on, e.g. during the reconnect grace): the ladder restarts. */
  async update(config: TranscodeConfig): Promise<void> {
    if (!this.stream) return;
    await this.halt();
    this.restoreSource(this.stream);
    await this.run(this.stream, config);
  }

  /** With the push, the renditions stay what its viewers got (HLS plays them through the reconnect grace). */
  async stop(reason: StopReason): Promise<void> {
    this.stopped = true;
    await this.halt();
    if (this.stream && reason !== 'push ended' && reason !== 'node stopping') this.restoreSource(this.stream);
    if (this.workDir) await rm(this.workDir, { recursive: true, force: true });
  }

  describe(): Record<string, unknown> {
    return {
      renditions:
        this.plan?.renditions.map((rendition) => ({
          key: rendition.key,
          ...{ description: describeRendition(rendition) },
        })) ?? [],
      running: this.supervisor?.running ?? false,
      speed: this.speed?.current ?? null,
    };
  }

  private async run(stream: LiveStream, config: TranscodeConfig): Promise<void> {
    const { reporter, tools } = this.context;
    if (config.scte35.mode !== 'None') reporter.message('warning', SCTE35_NOTE);
    if (!hasLadder(config)) return;
    // HLS waits for the master (no playlist yet) rather than starting players on the push alone.
    stream.outgoing = { main: stream.source, renditions: [] };
    // The ladder is fitted to the source (size, frame rate, audio): wait for the push's probed tracks.
    const tracks = await poll(
      async () => stream.tracks,
      () => !this.stopped && !stream.ended,
    );
    if (!tracks || this.stopped) return;
    const plan = planLadder(config, tracks);
    this.plan = plan;
    stream.webrtc = plan.webrtc;
    for (const note of plan.notes) reporter.message('warning', note);
    if (plan.renditions.length === 0) {
      this.restoreSource(stream);
      return;
    }

    this.workDir = join(tools.dataDir, 'transcoder', stream.assigned.id);
    await mkdir(this.workDir, { recursive: true });
    const logo = config.overlay ? await this.writeLogo(config.overlay.data) : null;
    let epochFont: string | null = null;
    if (config.epochTimeEncoder.enabled) {
      if (existsSync(tools.font)) epochFont = tools.font;
      else
        reporter.message(
          'warning',
          `The epoch time is not drawn: the font ${tools.font} is missing (Debian package fonts-dejavu-core)`,
        );
    }
    const video = tracks.find((track) => track.type === 'Video');
    const args = transcoderArgs(plan, {
      input: tools.rtmpUrl(stream.source.rtmpName),
      inputTracks: tracks,
      output: (key) => tools.rtmpUrl(`${stream.assigned.id}_${key}`),
      logo: logo && config.overlay ? { file: logo, x: config.overlay.offsetX, y: config.overlay.offsetY } : null,
      epochFont,
      sourceHeight: video?.height ?? null,
    });
    reporter.message(
      'info',
      `Transcoding to ${plan.renditions.map((rendition) => describeRendition(rendition)).join('; ')}`,
    );
    const supervisor = new Supervisor({
      run: () => this.spawn(stream, plan, args),
      onEnded: (failure, restartInMs) => {
        if (failure)
          reporter.message('warning', `The transcoder failed (${failure}); restarting in ${restartInMs / 1000} s`);
      },
      onGiveUp: (failure) => this.giveUp(stream, failure),
    });
    this.supervisor = supervisor;
    supervisor.start();
  }

  private async halt(): Promise<void> {
    const supervisor = this.supervisor;
    this.supervisor = null;
    await supervisor?.stop();
    this.speed = null;
  }

  /** One ffmpeg run; its renditions go to the viewers once each has a fragment. */
  private spawn(stream: LiveStream, plan: LadderPlan, args: string[]): SupervisedRun {
    const child: GuardedChild = spawnGuarded(this.context.tools.ffmpeg, args);
    const startedAt = Date.now();
    let diagnostics = '';
    child.stderr.on('data', (chunk: Buffer) => {
      diagnostics = (diagnostics + chunk.toString()).slice(-4000);
    });
    const speed = new SpeedMeter((change) => {
      if (change.slow)
        this.context.reporter.message(
          'warning',
          `The transcoder cannot keep up with real time: it runs at ${change.speed.toFixed(2)}x (the ladder needs more CPU than this node has)`,
        );
      else
        this.context.reporter.message(
          'info',
          `The transcoder keeps up with real time again (${change.speed.toFixed(2)}x)`,
        );
    });
    this.speed = speed;
    child.stdout.on('data', (chunk: Buffer) => speed.progress(chunk.toString()));
    void this.whenReady(stream, plan, startedAt, child);
    return {
      ended: child.exited.then((code) => failureOf(code, diagnostics)),
      stop: () => child.stop(),
    };
  }

  /** Waits for a fragment of every rendition of this run, probes them, and gives them to the viewers. */
  private async whenReady(stream: LiveStream, plan: LadderPlan, since: number, child: GuardedChild): Promise<void> {
    const { hlsDir, ffprobe } = this.context.tools;
    const going = () => child.running && !this.stopped && !stream.ended;
    const fragments: string[] = [];
    for (const rendition of plan.renditions) {
      const fragment = await poll(() => newestFragment(hlsDir, `${stream.assigned.id}_${rendition.key}`, since), going);
      if (!fragment) return;
      fragments.push(fragment);
    }
    let probed: ProbedTrack[][];
    try {
      probed = await Promise.all(fragments.map((fragment) => probeFragment(ffprobe, fragment)));
    } catch (error) {
      this.context.log.error(`probing the renditions of ${stream.assigned.name} failed: ${String(error)}`);
      return;
    }
    if (!going()) return;
    const renditions = plan.renditions.map((rendition, index) =>
      this.rendition(stream, rendition, probed[index] ?? []),
    );
    const [top] = renditions;
    if (!top) return;
    stream.outgoing = { main: top, renditions };
    stream.transcoding = true;
    stream.transcodedSinceReport = true;
    this.context.reporter.send({
      kind: 'stream-state',
      streamId: stream.assigned.id,
      at: new Date().toISOString(),
      tracks: { outgoing: outgoingTracks(plan.renditions, probed) },
      // The stream's edges write the same master and pull its variants from here.
      renditions: renditions.map(({ key, bandwidth, width, height, codecs }) => ({
        key,
        bandwidth,
        width,
        height,
        codecs,
      })),
    });
  }

  private rendition(stream: LiveStream, plan: RenditionPlan, tracks: ProbedTrack[]): Rendition {
    const video = tracks.find((track) => track.type === 'Video');
    const name = `${stream.assigned.id}_${plan.key}`;
    return {
      key: plan.key,
      rtmpName: name,
      hlsName: name,
      bandwidth: plan.bandwidth || Math.round(tracks.reduce((sum, track) => sum + (track.bps ?? 0), 0)),
      width: video?.width ?? null,
      height: video?.height ?? null,
      codecs:
        tracks
          .map((track) => track.codecs)
          .filter(Boolean)
          .join(',') || null,
      tracks: trackInfos(tracks),
      coding: videoCodingOf(tracks),
    };
  }

  private giveUp(stream: LiveStream, failure: string): void {
    this.restoreSource(stream);
    // Without their playlists, the master's variants play the push (HLS players keep going).
    for (const rendition of this.plan?.renditions ?? [])
      void rm(join(this.context.tools.hlsDir, `${stream.assigned.id}_${rendition.key}`), {
        recursive: true,
        force: true,
      });
    this.context.reporter.message(
      'error',
      `Transcoding failed 3 times within a minute (${failure}): viewers get the stream as it is pushed`,
    );
  }

  /** Viewers get the push as it came again, and its tracks are the outgoing ones. */
  private restoreSource(stream: LiveStream): void {
    const wasTranscoding = stream.transcoding;
    stream.outgoing = { main: stream.source, renditions: null };
    stream.transcoding = false;
    if (wasTranscoding && !stream.ended && stream.tracks)
      this.context.reporter.send({
        kind: 'stream-state',
        streamId: stream.assigned.id,
        at: new Date().toISOString(),
        tracks: { outgoing: stream.tracks },
        renditions: null,
      });
  }

  /** The overlay's data URI as a file ffmpeg reads (PNG or JPEG, as the control plane checked it). */
  private async writeLogo(dataUri: string): Promise<string | null> {
    const comma = dataUri.indexOf(',');
    if (!this.workDir || comma < 0) return null;
    const bytes = Buffer.from(dataUri.slice(comma + 1), 'base64');
    const file = join(this.workDir, bytes[0] === 0x89 ? 'logo.png' : 'logo.jpg');
    await writeFile(file, bytes);
    return file;
  }
}

/** Why an ffmpeg run ended: null when it ended cleanly (its input ended), else its last words or its signal. */
function failureOf(code: number | null, diagnostics: string): string | null {
  if (code === 0) return null;
  // The watchdog shell exits with 128 + the signal of a killed tool (and says "Killed" itself).
  if (code === null || code > 128) return `ffmpeg was killed by signal ${code === null ? 'unknown' : code - 128}`;
  return lastLine(diagnostics) || `ffmpeg exited with ${code}`;
}

/** The outgoing tracks: each rendition's video, then each distinct audio track once. */
function outgoingTracks(renditions: RenditionPlan[], probed: ProbedTrack[][]): TrackInfo[] {
  const tracks: TrackInfo[] = [];
  const audioSeen = new Set<unknown>();
  const add = (track: ProbedTrack) => {
    const [info] = trackInfos([track]);
    if (info) tracks.push({ ...info, idx: tracks.length });
  };
  for (const tracksOfRendition of probed) {
    const video = tracksOfRendition.find((track) => track.type === 'Video');
    if (video) add(video);
  }
  renditions.forEach((rendition, index) => {
    const audio = probed[index]?.find((track) => track.type === 'Audio');
    if (!audio || audioSeen.has(rendition.audio)) return;
    audioSeen.add(rendition.audio);
    add(audio);
  });
  return tracks;
}
