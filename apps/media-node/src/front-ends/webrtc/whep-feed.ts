import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { type TrackInfo, WEBRTC_PLAYBACK_FAILED } from '@streamcloud/contract';
import { type MediaStreamTrack, RtpPacket, Vp8RtpPayload } from 'werift';
import { type GuardedChild, lastLine, spawnGuarded } from '../../child.js';
import type { Logger } from '../../log.js';
import { RENDITIONS_WAIT_MS, renditionsReady, tracksOf } from '../../pipelines/capture.js';
import type { StreamManager } from '../../streams/manager.js';
import type { LiveStream } from '../../streams/types.js';
import { playInputArgs } from '../rtmp/nginx.js';
import { OPUS, VP8 } from './endpoint.js';
import { h264FeedArgs, h264Source, startsH264Keyframe, type VideoPath } from './h264.js';

/** What a feed needs of the node. */
export interface FeedOptions {
  ffmpeg: string;
  manager: StreamManager;
  log: Logger;
  /** A stream name on the node's internal nginx-rtmp, for the node's own players. */
  playUrl: (name: string) => string;
}

/** What a feed sends to: one WHEP session's tracks, once its connection is up. */
export interface FeedViewer {
  connected: boolean;
  ended: boolean;
  video: MediaStreamTrack;
  audio: MediaStreamTrack;
  /** Video is forwarded from a keyframe on: before it, a decoder has nothing to start from. */
  waitingForKeyframe: boolean;
}

/** WebRTC viewers get at most this picture height and frame rate (bounds the VP8 encoder's CPU). */
const MAX_HEIGHT = 720;
const MAX_FPS = 30;
/** libvpx's realtime speed, fixed: the feed takes about 0.4 of a core for 720p30, 0.06 for 320x240 at 15 fps (docs/decisions.md). */
const VP8_SPEED = -10;
/** VP8 bitrate: the source's video bitrate with this margin (VP8 needs more than H.264), within the bounds. */
const VIDEO_BITRATE = { factor: 1.25, min: 400_000, max: 2_500_000, unknown: 1_500_000 };
/** While the push goes on, a feed whose ffmpeg ended starts again after this, at most this many times in a row without video. */
const RESPAWN_DELAY_MS = 500;
const MAX_RESPAWNS = 5;
/**
 * When the VP8 encoder makes keyframes: every 0.25 s for the feed's first 2 s, then every second. The feed
 * starts for its first viewer, whose connection (ICE, DTLS) is usually up a little after the first keyframe
 * left; its picture starts at the next one, so at the start they come often (keyframes cost bitrate, so
 * not for long). From t = 2 s (n_forced = 8) on: one whenever t ≥ n_forced − 6, i.e. at 2, 3, 4 s...
 */
const KEYFRAMES = 'expr:if(lt(t,2),gte(t,n_forced*0.25),gte(t,n_forced-6))';
/** A joining viewer's catch-up (StreamFeed.join): its frames this far apart (90 kHz RTP clock: 1 ms), at most this many packets (~2 s at 2.5 Mb/s). */
const CATCH_UP_TICKS = 90;
const MAX_CATCH_UP_PACKETS = 600;
/** The pushes whose feed failure was reported in the stream's messages already. */
const reportedFailures = new WeakSet<LiveStream>();
/** The sample rates Opus encodes at. */
const OPUS_RATES = [8000, 12_000, 16_000, 24_000, 48_000];
/** How long the feed waits for the push's probed tracks (they come with its first HLS fragment). */
export const TRACKS_WAIT_MS = 3000;
/** A feed started before they were known, whose ffmpeg then failed, waits this much longer for them. */
export const TRACKS_LATE_WAIT_MS = 15_000;

/**
 * One stream's WebRTC media: an ffmpeg pulls what the stream's viewers get from nginx-rtmp (the push, or
 * its transcoder's top rendition) and sends VP8 and Opus RTP to two loopback UDP sockets of the node, which
 * hand every packet to each connected viewer's tracks. The encoding follows the stream's ladder (its first
 * VP8 and Opus tracks) when it has one. When that source ends while the push goes on (the transcoder
 * started, or gave up), the ffmpeg starts again on the new one and the viewers carry on from a keyframe.
 */
export class StreamFeed<V extends FeedViewer = FeedViewer> {
  readonly viewers = new Set<V>();
  stopped = false;
  /** Stops the feed while it has no viewer (WhepPlayback.idleFor). */
  idleTimer: ReturnType<typeof setTimeout> | undefined;
  private firstVideo = false;
  private ffmpeg: GuardedChild | null = null;
  private readonly sockets: Socket[] = [];
  private ports: [number, number] = [0, 0];
  /** ffmpeg starts since the last one that sent video (audio, for a push without video). */
  private respawns = 0;
  /** Whether the running ffmpeg sends video (not for a push known to have none). */
  private sendsVideo = true;
  /** The video packets since the last keyframe began (see join); null: none yet, or more than the cache holds. */
  private sinceKeyframe: Buffer[] | null = null;
  /** Whether a video packet starts a keyframe, in the feed's codec. */
  private readonly startsKeyframe: (packet: Buffer) => boolean;

  constructor(
    readonly push: LiveStream,
    /** H.264 as the source has it, or VP8 re-encoded (why: for the stream's messages and /metadata). */
    readonly path: VideoPath,
    /** Its key among the feeds (feedKey). */
    readonly key: string,
    private readonly o: FeedOptions,
    private readonly onFailure: (failure: string) => void,
  ) {
    this.startsKeyframe = path.codec === 'H264' ? startsH264Keyframe : startsVp8Keyframe;
  }

  async start(): Promise<void> {
    this.ports = await Promise.all([
      this.listen((data) => this.forwardVideo(data)),
      this.listen((data) => this.forwardAudio(data)),
    ]);
    const tracks = await this.tracks();
    if (this.stopped) return;
    this.spawn(tracks);
  }

  private spawn(tracks: TrackInfo[]): void {
    const [videoPort, audioPort] = this.ports;
    const main = this.push.outgoing.main;
    // Tracks not known yet: both are mapped (a one-track push cannot start so: it starts again, below).
    const video = tracks.find((track) => track.type === 'Video');
    const hasAudio = tracks.some((track) => track.type === 'Audio');
    // The source changed (a ladder's renditions came or went) to one browsers cannot take as it is: its
    // viewers negotiated H.264, so they end; their players' next offer gets VP8.
    const source = this.path.codec === 'H264' && video ? h264Source(main.coding) : null;
    if (source && !source.ok) {
      this.fail(`the stream's video changed and must be re-encoded now (${source.reason}); play again`, false);
      return;
    }
    reportPath(this.o.manager, this.push, this.path);
    const ladder = this.push.webrtc;
    const bitrate = ladder?.video
      ? ladder.video.bitrate
      : video?.bps
        ? Math.round(Math.min(VIDEO_BITRATE.max, Math.max(VIDEO_BITRATE.min, video.bps * VIDEO_BITRATE.factor)))
        : VIDEO_BITRATE.unknown;
    // RTCP goes to the same socket (and is dropped there) rather than to whatever owns the next port.
    const rtp = (port: number) => `rtp://127.0.0.1:${port}?pkt_size=1200&rtcpport=${port}`;
    const args = [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      // The probe ends once the push's tracks came (`-fflags nobuffer` only made it slower).
      ...playInputArgs(this.o.playUrl(main.rtmpName), tracksOf(this.push, main) ?? tracks),
    ];
    this.sendsVideo = Boolean(video) || tracks.length === 0;
    // H.264 as it is: no video encoder runs (h264.ts); else VP8 re-encoded.
    if (this.path.codec === 'H264' && this.sendsVideo) args.push(...h264FeedArgs(rtp(videoPort)));
    else if (this.sendsVideo) {
      args.push(
        '-map',
        '0:v:0',
        '-vf',
        ladder?.video ? `scale=${ladder.video.width}:${ladder.video.height}` : `scale=-2:'min(${MAX_HEIGHT},ih)'`,
        '-fpsmax',
        String(ladder?.video?.framerate ?? MAX_FPS),
        '-pix_fmt',
        'yuv420p',
        '-c:v',
        'libvpx',
        // One thread: libvpx's VP8 threads spin while they wait, which burns a busy machine's CPU.
        '-threads',
        '1',
        '-deadline',
        'realtime',
        // A fixed speed (negative): a positive value would let libvpx spend up to a share of every frame's time.
        '-cpu-used',
        String(VP8_SPEED),
        '-lag-in-frames',
        '0',
        '-auto-alt-ref',
        '0',
        '-error-resilient',
        '1',
        '-b:v',
        String(bitrate),
        '-maxrate',
        String(bitrate),
        '-bufsize',
        String(bitrate),
        // A keyframe every second (more often at first): a viewer who joins gets a picture within about a second.
        '-force_key_frames',
        KEYFRAMES,
        '-g',
        String(ladder?.video?.keyInterval || MAX_FPS * 2),
        '-payload_type',
        String(VP8.payloadType),
        '-f',
        'rtp',
        rtp(videoPort),
      );
    }
    if (hasAudio || tracks.length === 0) {
      const audio = ladder?.audio;
      args.push(
        '-map',
        '0:a:0',
        '-c:a',
        'libopus',
        '-b:a',
        String(audio?.bitrate ?? 96_000),
        // Opus over RTP runs a 48 kHz clock; the encoder takes the rates Opus has.
        '-ar',
        String(audio && OPUS_RATES.includes(audio.rate) ? audio.rate : OPUS.clockRate),
        '-ac',
        String(audio?.channels ?? OPUS.channels),
        '-payload_type',
        String(OPUS.payloadType),
        '-f',
        'rtp',
        rtp(audioPort),
      );
    }
    const ffmpeg = spawnGuarded(this.o.ffmpeg, args);
    this.ffmpeg = ffmpeg;
    let log = '';
    ffmpeg.stderr.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
    });
    const kinds = tracks.length > 0 ? tracks.map((track) => track.type).join('+') : 'tracks not known yet';
    this.o.log.debug(
      `WHEP feed of ${this.push.assigned.name} started on ${main.rtmpName} (${this.path.codec === 'H264' ? 'H.264 as it is' : `VP8 at ${bitrate} b/s`}; ${kinds})`,
    );
    if (tracks.length === 0) {
      // Its probe waits for both kinds of track until its bound (playInputArgs): once the push's tracks are
      // known to be one kind only (it cannot map both and would fail), it is stopped rather than waited for.
      void this.tracks(true).then((known) => {
        const oneKind = known.length > 0 && new Set(known.map((track) => track.type)).size === 1;
        if (oneKind && this.ffmpeg === ffmpeg && !this.stopped) void ffmpeg.stop();
      });
    }
    void ffmpeg.exited.then(async (code) => {
      if (this.stopped || this.ffmpeg !== ffmpeg) return;
      // nginx ends its players when what they play ends: the push (no failure), or the source viewers get
      // (the transcoder's renditions came, went, or restart): then the feed goes on with the current one.
      if (this.push.ended) {
        this.fail('the stream ended', false);
        return;
      }
      // Started before the push's tracks were known, it mapped a video and an audio track: a push with one of
      // them only fails (after its probe's bound, or stopped below). It starts again with the tracks the probe
      // finds (not counted as a failure).
      const known = tracks.length > 0 ? tracks : await this.tracks(true);
      if (this.stopped || this.ffmpeg !== ffmpeg) return;
      if (known === tracks && ++this.respawns > MAX_RESPAWNS) {
        this.fail(`encoding for WebRTC failed: ${lastLine(log) || `ffmpeg exited with ${code}`}`);
        return;
      }
      for (const viewer of this.viewers) viewer.waitingForKeyframe = true;
      // The next ffmpeg numbers its packets anew: nobody joins from the last one's.
      this.sinceKeyframe = null;
      setTimeout(
        () => {
          if (!this.stopped && !this.push.ended) this.spawn(known);
        },
        known === tracks ? RESPAWN_DELAY_MS : 0,
      ).unref();
    });
  }

  /** The feed cannot go on: it stops, and its viewers' sessions end. */
  fail(failure: string, isError = true): void {
    if (this.stopped) return;
    if (isError) {
      this.o.log.error(`WHEP feed of ${this.push.assigned.name}: ${failure}`);
      // The stream's messages say why (once a push: each new viewer starts the feed again).
      if (!reportedFailures.has(this.push)) {
        reportedFailures.add(this.push);
        this.o.manager.state(this.push.assigned.id, {
          message: { level: 'error', text: `${WEBRTC_PLAYBACK_FAILED}: ${failure}` },
        });
      }
    }
    this.stop();
    this.onFailure(failure);
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    void this.ffmpeg?.stop();
    for (const socket of this.sockets) socket.close();
    this.o.log.debug(`WHEP feed of ${this.push.assigned.name} stopped`);
  }

  /** The push's tracks; an empty list when they are not known after a short wait (`late`: a longer one). */
  private async tracks(late = false) {
    await sourceKnown(this.push, late ? TRACKS_LATE_WAIT_MS : TRACKS_WAIT_MS, () => !this.stopped);
    return this.push.tracks ?? [];
  }

  private listen(onPacket: (data: Buffer) => void): Promise<number> {
    const socket = createSocket('udp4');
    this.sockets.push(socket);
    socket.on('message', onPacket);
    return new Promise((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, '127.0.0.1', () => resolve((socket.address() as AddressInfo).port));
    });
  }

  /**
   * A viewer whose connection just came up starts from the feed's last keyframe rather than waiting up to a
   * second for the next: the packets since it go out at once, their RTP timestamps moved to a millisecond
   * apart just before the latest frame's, so the browser decodes them in a burst and then plays at the live
   * edge (at their own timestamps it would play that second late for good). The first picture is up to a
   * second old and the motion since flashes by; then the stream is live.
   */
  join(viewer: V): void {
    if (!viewer.waitingForKeyframe || !this.sinceKeyframe?.length) return;
    viewer.waitingForKeyframe = false;
    for (const packet of catchUp(this.sinceKeyframe)) viewer.video.writeRtp(packet);
  }

  private forwardVideo(data: Buffer): void {
    if (data.length < 12 || isRtcp(data)) return;
    this.respawns = 0;
    if (!this.firstVideo) {
      this.firstVideo = true;
      this.o.log.debug(`WHEP feed of ${this.push.assigned.name}: first ${this.path.codec} packet`);
    }
    const keyframeStart = this.startsKeyframe(data);
    if (keyframeStart) this.sinceKeyframe = [];
    // A longer wait between keyframes than the cache holds: no joining from it until the next one.
    if (this.sinceKeyframe && this.sinceKeyframe.length < MAX_CATCH_UP_PACKETS) this.sinceKeyframe.push(data);
    else this.sinceKeyframe = null;
    for (const viewer of this.viewers) {
      if (!viewer.connected || viewer.ended) continue;
      if (viewer.waitingForKeyframe) {
        if (!keyframeStart) continue;
        viewer.waitingForKeyframe = false;
      }
      viewer.video.writeRtp(data);
    }
  }

  private forwardAudio(data: Buffer): void {
    if (data.length < 12 || isRtcp(data)) return;
    if (!this.sendsVideo) this.respawns = 0;
    for (const viewer of this.viewers) if (viewer.connected && !viewer.ended) viewer.audio.writeRtp(data);
  }
}

/**
 * `packets` (a keyframe and the frames after it) with their RTP timestamps moved to CATCH_UP_TICKS apart,
 * ending at the last one's own: copies, the cache stays as it came.
 */
function catchUp(packets: Buffer[]): Buffer[] {
  const timestamps = packets.map((packet) => packet.readUInt32BE(4));
  const last = timestamps[timestamps.length - 1] ?? 0;
  let framesAfter = new Set(timestamps).size - 1;
  return packets.map((packet, index) => {
    if (index > 0 && timestamps[index] !== timestamps[index - 1]) framesAfter--;
    const copy = Buffer.from(packet);
    copy.writeUInt32BE((last - framesAfter * CATCH_UP_TICKS) >>> 0, 4);
    return copy;
  });
}

/** Each push's wait for a starting ladder's renditions: one for all who ask (a viewer's offer, its feed, a warm-up), not one after another. */
const renditionWaits = new WeakMap<LiveStream, Promise<boolean>>();

/**
 * Until what the stream's viewers get is known, or the waits are over: the push's tracks (probed from its first
 * HLS fragment; at most `probeWaitMs`, while `going()`), then a starting ladder's top rendition (its viewers get
 * that, not the push; RENDITIONS_WAIT_MS at most, once a push).
 */
export async function sourceKnown(push: LiveStream, probeWaitMs: number, going = () => true): Promise<void> {
  const deadline = Date.now() + probeWaitMs;
  while (!push.tracks && !push.ended && going() && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
  let renditions = renditionWaits.get(push);
  if (!renditions) {
    const until = Date.now() + RENDITIONS_WAIT_MS;
    renditions = renditionsReady(push, () => !push.ended && Date.now() < until);
    renditionWaits.set(push, renditions);
  }
  await renditions;
}

/** A feed's key: the stream and its video codec (each stream has at most one feed of each). */
export const feedKey = (push: LiveStream, path: VideoPath) => `${push.assigned.id}/${path.codec}`;

/** The paths already told in each push's messages (a few at most: a reason per codec). */
const reportedPaths = new WeakMap<LiveStream, Set<string>>();
const MAX_REPORTED_PATHS = 8;

/**
 * Says in the stream's messages how WebRTC viewers get its video, once a push for each path (an operator sees
 * whether the node re-encodes, and why: a B-frame push can be fixed at the encoder).
 */
function reportPath(manager: StreamManager, push: LiveStream, path: VideoPath): void {
  const text =
    path.codec === 'H264'
      ? 'WebRTC viewers get the H.264 video as it is (no re-encoding)'
      : `WebRTC viewers get the video re-encoded to VP8: ${path.reason}`;
  const told = reportedPaths.get(push) ?? new Set<string>();
  if (told.has(text) || told.size >= MAX_REPORTED_PATHS) return;
  told.add(text);
  reportedPaths.set(push, told);
  manager.state(push.assigned.id, { message: { level: 'info', text } });
}

/** RTCP (sender reports) rather than RTP: payload types 200–204 with the marker bit. */
function isRtcp(data: Buffer): boolean {
  const type = data[1] ?? 0;
  return type >= 200 && type <= 204;
}

/** Whether an RTP packet of VP8 starts a keyframe (first packet of partition 0 with the P bit clear). */
function startsVp8Keyframe(data: Buffer): boolean {
  try {
    const vp8 = Vp8RtpPayload.deSerialize(RtpPacket.deSerialize(data).payload);
    return vp8.payloadHeaderExist && vp8.isKeyframe;
  } catch {
    return false;
  }
}
