import { audioConfig, videoSize } from './codec-config.js';
import { avc1Entry, fragment, initSegment, mp4aEntry, type Sample, type TrackHeader } from './mp4-writer.js';

/** FLV's codec ids this remuxer takes: AAC audio (SoundFormat 10), AVC video (CodecID 7). */
const AAC = 10;
const AVC = 7;
const VIDEO_TIMESCALE = 90_000;
/**
 * How much media (ms of its timestamps) may come before every probed track's sequence header did: past it the run
 * fails, said in the stream's messages after the Supervisor's retries, instead of waiting silently for ever.
 */
export const HEADER_WAIT_MS = 5000;

export interface RemuxOptions {
  /** The tracks the variant has (as probed): the init segment waits for each one's sequence header. */
  video: boolean;
  audio: boolean;
  /** A fragment ends once a track's samples in it span this long, ms (and at every video keyframe). */
  fragmentMs: number;
  /** Where this run's clock starts, ms: the previous run's `nextStartMs()`, so media time never goes back. */
  startMs: number;
  /** The fragmented MP4, in order: the init segment, then each fragment (moof + mdat). */
  emit(bytes: Buffer): void;
}

interface Track {
  header: TrackHeader | null;
  /** The configuration its header was made of: a different one later cannot go on in this init segment. */
  config: Buffer | null;
  /** The last sample, held until the next one gives its duration. */
  pending: (Sample & { dtsMs: number; ticks: number }) | null;
  samples: Sample[];
  /** The decode time of the fragment's first sample: its tfdt (ticks) and its ms. */
  baseTicks: number;
  startMs: number;
}

/**
 * FLV audio and video messages (as an RTMP play delivers them: the tag's body and its ms timestamp) remuxed into
 * the fragmented MP4 ffmpeg's `-c copy -f mp4 -movflags frag_keyframe+empty_moov+default_base_moof -frag_duration`
 * writes (ll-hls/files.ts fmp4OutputArgs), for the LL-HLS packager: the init segment once every track's sequence
 * header came, then a fragment at every video keyframe and whenever a track's samples reach `fragmentMs`. Video is
 * track 1 and audio the next, as ffmpeg maps them. Throws on a codec other than AVC/AAC or on a tag cut short.
 */
export class FlvFmp4Remuxer {
  private readonly video: Track = emptyTrack();
  private readonly audio: Track = emptyTrack();
  private initDone = false;
  private sequence = 1;
  /** The timestamp (ms) of this run's first sample: media time counts from there. */
  private firstMs: number | null = null;
  private lastMs: number;
  /** The timestamp of the first sample that came before the init segment. */
  private waitingSince: number | null = null;

  constructor(private readonly o: RemuxOptions) {
    this.lastMs = o.startMs;
  }

  /** Where a next run's clock should start: past everything this one wrote. */
  nextStartMs(): number {
    return this.lastMs + 1;
  }

  /** An FLV video tag's body (CodecID 7: AVCPacketType, composition time, AVCC NAL units or avcC). */
  pushVideo(timestampMs: number, body: Buffer): void {
    if (!this.o.video || body.length < 5) return;
    if ((body[0] ?? 0) % 16 !== AVC) throw new Error(`FLV video of codec id ${(body[0] ?? 0) % 16}, not AVC`);
    const packetType = body[1];
    if (packetType === 0) this.configure(this.video, body.subarray(5), () => this.videoHeader(body.subarray(5)));
    if (packetType !== 1) return;
    const keyframe = (body[0] ?? 0) >> 4 === 1;
    const compositionMs = body.readIntBE(2, 3);
    this.sample(this.video, timestampMs, body.subarray(5), compositionMs, keyframe);
  }

  /** An FLV audio tag's body (SoundFormat 10: AACPacketType, then an AudioSpecificConfig or a raw frame). */
  pushAudio(timestampMs: number, body: Buffer): void {
    if (!this.o.audio || body.length < 2) return;
    if ((body[0] ?? 0) >> 4 !== AAC) throw new Error(`FLV audio of sound format ${(body[0] ?? 0) >> 4}, not AAC`);
    if (body[1] === 0) this.configure(this.audio, body.subarray(2), () => this.audioHeader(body.subarray(2)));
    else this.sample(this.audio, timestampMs, body.subarray(2), 0, true);
  }

  private videoHeader(avcC: Buffer): TrackHeader {
    const { width, height } = videoSize(avcC);
    return {
      id: 1,
      kind: 'video',
      timescale: VIDEO_TIMESCALE,
      sampleEntry: avc1Entry(avcC, width, height),
      width,
      height,
    };
  }

  private audioHeader(asc: Buffer): TrackHeader {
    const { sampleRate, channels } = audioConfig(asc);
    const id = this.o.video ? 2 : 1;
    return {
      id,
      kind: 'audio',
      timescale: sampleRate,
      sampleEntry: mp4aEntry(asc, channels, sampleRate),
      width: 0,
      height: 0,
    };
  }

  /** A sequence header: the track's first makes its header; the same again changes nothing. */
  private configure(track: Track, config: Buffer, header: () => TrackHeader): void {
    if (track.config) {
      if (!track.config.equals(config)) throw new Error('a new sequence header: the codec configuration changed');
      return;
    }
    track.config = Buffer.from(config);
    track.header = header();
    const tracks = [this.o.video && this.video.header, this.o.audio && this.audio.header];
    if (tracks.some((each) => each === null)) return;
    this.initDone = true;
    this.o.emit(initSegment(tracks.filter((each): each is TrackHeader => !!each)));
  }

  private sample(track: Track, timestampMs: number, data: Buffer, compositionMs: number, keyframe: boolean): void {
    const header = track.header;
    // Before the init segment (a track's sequence header still missing) a sample has nowhere to go.
    if (!this.initDone || !header) {
      this.waitingSince ??= timestampMs;
      if (timestampMs - this.waitingSince > HEADER_WAIT_MS) {
        const missing = [this.o.video && !this.video.header && 'video', this.o.audio && !this.audio.header && 'audio'];
        throw new Error(`no ${missing.filter(Boolean).join(' and ')} sequence header in ${HEADER_WAIT_MS} ms of media`);
      }
      return;
    }
    this.firstMs ??= timestampMs;
    const previous = track.pending;
    // Media time of this run, kept rising within each track (a sample's duration is never 0 or less).
    const dtsMs = Math.max(this.o.startMs + timestampMs - this.firstMs, previous ? previous.dtsMs + 1 : 0);
    const ticks = Math.round((dtsMs * header.timescale) / 1000);
    if (previous) {
      if (track.samples.length === 0) {
        track.baseTicks = previous.ticks;
        track.startMs = previous.dtsMs;
      }
      const { data: bytes, compositionOffset, keyframe: sync } = previous;
      track.samples.push({ data: bytes, duration: ticks - previous.ticks, compositionOffset, keyframe: sync });
    }
    const cut =
      (track === this.video && keyframe && track.samples.length > 0) ||
      (track.samples.length > 0 && dtsMs - track.startMs >= this.o.fragmentMs);
    if (cut) this.flush();
    const compositionOffset = Math.round((compositionMs * header.timescale) / 1000);
    track.pending = { data, duration: 0, compositionOffset, keyframe, dtsMs, ticks };
    this.lastMs = Math.max(this.lastMs, dtsMs);
  }

  /** The input ended: what has a duration goes out as a last fragment (each track's last sample has none). */
  end(): void {
    this.flush();
  }

  /** Writes the samples whose durations are known as one fragment. */
  private flush(): void {
    const runs = [this.video, this.audio].flatMap((track) =>
      track.header && track.samples.length > 0
        ? [{ trackId: track.header.id, baseDecodeTime: track.baseTicks, samples: track.samples }]
        : [],
    );
    this.video.samples = [];
    this.audio.samples = [];
    if (runs.length > 0) this.o.emit(fragment(this.sequence++, runs));
  }
}

const emptyTrack = (): Track => ({ header: null, config: null, pending: null, samples: [], baseTicks: 0, startMs: 0 });
