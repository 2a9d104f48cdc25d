import type { CmafOutput } from '@streamcloud/contract';
import type { AddressPolicy } from '@streamcloud/net-guard';
import { Fmp4Splitter } from '../../fmp4-splitter.js';
import { EMPTY_MFRA, lastSegment } from './fmp4.js';
import { LongRunningIngest, SegmentIngest, type TrackIngest } from './http-ingest.js';
import type { CapturedTrack, RelaySource, RelayTarget, TargetRun } from './target.js';
import { drained, ffmpegEnded, RelayFailure, relayFfmpeg } from './target.js';

/** The video track's timescale when none is set: 90 kHz, a multiple of every usual frame rate. */
export const DEFAULT_VIDEO_TIMESCALE = 90_000;
/** How long a stopping run may take to end its requests cleanly before they are cut. */
const CLOSE_GRACE_MS = 2000;
/** Audio fragments last this long (video fragments run from keyframe to keyframe). */
const AUDIO_FRAGMENT_US = 2_000_000;
/** Sample rates the AAC encoder takes: an audio timescale other than the source's rate resamples to one of them. */
const AAC_RATES = [7350, 8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 64000, 88200, 96000];

const MOVFLAGS = 'empty_moov+default_base_moof+cmaf+skip_trailer+separate_moof';

/** The Streams() name of a track: `video-0.cmfv`, `audio-1.cmfa` (type and the source's track index). */
const trackName = (track: CapturedTrack, index: number) =>
  `${track.type.toLowerCase()}-${track.info?.idx ?? index}.cmf${track.type === 'Video' ? 'v' : 'a'}`;

/**
 * CMAF ingest: each captured track is its own CMAF track (fragmented MP4 with prft boxes) that ffmpeg
 * writes to a pipe of its own, and the node POSTs it to `<endpoint>[/Events(<eventID>)]/Streams(<track>)`
 * on a connection of its own. DASH-IF Live Media Ingest Interface-1 by default (the CMAF header, then
 * one request per segment); with `unifiedStreamingPlatform`, one long-running chunked POST per track
 * ended by an empty `mfra` box. Video keeps its codec and gets the video timescale (90 kHz by default);
 * audio is copied when the audio timescale is unset or its sample rate, else resampled to it (AAC).
 */
export class CmafTarget implements RelayTarget {
  readonly label: string;
  readonly needsTracks = true;

  constructor(
    private readonly output: CmafOutput,
    private readonly policy: AddressPolicy,
  ) {
    this.label = output.endpoint;
  }

  /** Where a track's objects go. */
  trackUrl(name: string): URL {
    const base = this.output.endpoint.replace(/\/+$/, '');
    const event = this.output.eventID ? `/Events(${encodeURIComponent(this.output.eventID)})` : '';
    return new URL(`${base}${event}/Streams(${encodeURIComponent(name)})`);
  }

  /** ffmpeg's output arguments for one track, written to `pipe:<fd>`. */
  trackArgs(track: CapturedTrack, fd: number): string[] {
    const args = ['-map', track.map];
    if (track.type === 'Video') {
      args.push('-c:v', 'copy', '-movflags', `${MOVFLAGS}+frag_keyframe`);
      args.push('-video_track_timescale', String(this.output.videoTimescale || DEFAULT_VIDEO_TIMESCALE));
    } else {
      const timescale = this.output.audioTimescale;
      if (timescale && timescale !== track.info?.rate) {
        if (!AAC_RATES.includes(timescale))
          throw new RelayFailure(
            `the audio timescale ${timescale} is not a sample rate the audio can be resampled to (${AAC_RATES.join(', ')})`,
            'fatal',
          );
        args.push('-c:a', 'aac', '-ar', String(timescale), '-b:a', String(Math.round(track.info?.bps ?? 128_000)));
      } else args.push('-c:a', 'copy');
      args.push('-movflags', MOVFLAGS, '-frag_duration', String(AUDIO_FRAGMENT_US));
    }
    return [...args, '-write_prft', 'wallclock', '-f', 'mp4', `pipe:${fd}`];
  }

  run(source: RelaySource, flowing: () => void): TargetRun {
    return new CmafRun(this, source, this.output.unifiedStreamingPlatform, this.policy, flowing);
  }
}

class CmafRun implements TargetRun {
  readonly ended: Promise<RelayFailure | null>;
  private readonly ingests: TrackIngest[] = [];
  private failure: RelayFailure | null = null;
  private stopping = false;
  private child: ReturnType<typeof relayFfmpeg>['child'] | null = null;

  constructor(
    target: CmafTarget,
    source: RelaySource,
    longRunning: boolean,
    policy: AddressPolicy,
    flowing: () => void,
  ) {
    this.ended = this.go(target, source, longRunning, policy, flowing).catch((error: unknown) =>
      error instanceof RelayFailure ? error : new RelayFailure(String(error), 'target'),
    );
  }

  bytesOut(): number {
    return this.ingests.reduce((sum, ingest) => sum + ingest.bytesOut(), 0);
  }

  bytesIn(): number {
    return this.ingests.reduce((sum, ingest) => sum + ingest.bytesIn(), 0);
  }

  /** Ends the tracks cleanly (last segment, end of the long requests) unless that takes over CLOSE_GRACE_MS. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.child?.stop();
    const timer = new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref());
    if ((await Promise.race([this.ended.then(() => 'ended'), timer])) !== 'ended') {
      for (const ingest of this.ingests) ingest.abort();
      await this.ended;
    }
  }

  private async go(
    target: CmafTarget,
    source: RelaySource,
    longRunning: boolean,
    policy: AddressPolicy,
    flowing: () => void,
  ): Promise<RelayFailure | null> {
    if (source.tracks.length === 0) throw new RelayFailure('the capture selects no track of the stream', 'fatal');
    const outputArgs = source.tracks.flatMap((track, i) => target.trackArgs(track, 3 + i));
    const { child, log } = relayFfmpeg(source, outputArgs, { extraPipes: source.tracks.length });
    this.child = child;
    let started = false;
    const tracks = source.tracks.map((track, i) => {
      const url = target.trackUrl(trackName(track, i));
      const ingest = longRunning ? new LongRunningIngest(url, policy) : new SegmentIngest(url, policy);
      ingest.onAccepted = flowing;
      this.ingests.push(ingest);
      void ingest.failed.then((failure) => this.fail(failure));
      // A segment that comes while the run stops is held: the last one is labelled `lmsg`.
      let held: Buffer | null = null;
      const splitter = new Fmp4Splitter((object) => {
        started = true;
        if (object.kind === 'segment' && this.stopping && !longRunning) {
          if (held) ingest.send(held);
          held = object.data;
        } else ingest.send(object.data);
      });
      const pipe = child.extras[i];
      pipe?.on('data', (chunk: Buffer) => {
        try {
          splitter.push(chunk);
        } catch (error) {
          this.fail(new RelayFailure(`ffmpeg wrote no fragmented MP4: ${String(error)}`, 'target'));
        }
      });
      return {
        ingest,
        finish: async () => {
          if (pipe) await drained(pipe);
          if (this.failure) return;
          if (held) ingest.send(lastSegment(held));
          if (longRunning) ingest.send(EMPTY_MFRA);
          await ingest.end();
        },
      };
    });
    const code = await child.exited;
    await Promise.all(tracks.map((track) => track.finish()));
    for (const { ingest } of tracks) ingest.abort();
    if (this.stopping) return null;
    return this.failure ?? ffmpegEnded(code, log, started);
  }

  private fail(failure: RelayFailure): void {
    if (this.failure || this.stopping) return;
    this.failure = failure;
    void this.child?.stop();
  }
}
