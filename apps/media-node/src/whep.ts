import { createSocket, type Socket } from 'node:dgram';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type TrackInfo, WEBRTC_PLAYBACK_FAILED } from '@streamcloud/contract';
import { MediaStream, MediaStreamTrack, RtpPacket, Vp8RtpPayload } from 'werift';
import { type GuardedChild, lastLine, spawnGuarded } from './child.js';
import type { Logger } from './log.js';
import { playInputArgs } from './nginx.js';
import { RENDITIONS_WAIT_MS, renditionsReady, tracksOf } from './pipelines/capture.js';
import type { StreamManager } from './streams/manager.js';
import { NO_PREVIEW_SEAT } from './streams/preview-seats.js';
import { browserViewer, type ViewerRequest } from './streams/signed-playback.js';
import type { LiveStream } from './streams/types.js';
import { type Admission, OPUS, type PeerSession, peerBytes, VP8, WebRtcEndpoint } from './webrtc.js';
import {
  h264FeedArgs,
  h264Source,
  offeredVp8,
  startsH264Keyframe,
  type VideoPath,
  videoPathFor,
  withVideoFormatOnly,
} from './webrtc-h264.js';

export interface WhepOptions {
  ffmpeg: string;
  manager: StreamManager;
  log: Logger;
  /** A stream name on the node's internal nginx-rtmp, for the node's own players. */
  playUrl: (name: string) => string;
  /** Feeds kept running without a viewer (NodeConfig.warmFeeds). */
  warmFeeds: { limit: number; idleMs: number };
  /** STUN servers (NodeConfig.iceServers). */
  iceServers: readonly string[];
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
/** How long a feed started by a warm-up (WhepPlayback.warm) waits for its first viewer when no more may be kept warm. */
const FEED_WARM_MS = 10_000;
/** The pushes whose feed failure was reported in the stream's messages already. */
const reportedFailures = new WeakSet<LiveStream>();
/** The sample rates Opus encodes at. */
const OPUS_RATES = [8000, 12_000, 16_000, 24_000, 48_000];
/** How long the feed waits for the push's probed tracks (they come with its first HLS fragment). */
const TRACKS_WAIT_MS = 3000;
/** A feed started before they were known, whose ffmpeg then failed, waits this much longer for them. */
const TRACKS_LATE_WAIT_MS = 15_000;

interface Admitted {
  outputId: string;
  push: LiveStream;
  token: string | null;
  /** Who asked, as admission saw them: asked again once the peer is connected. */
  viewer: ViewerRequest;
  /** Admitted with a preview credential: the console's player, reported apart from viewers. */
  preview: boolean;
  /** The session's seat of its preview credential (PreviewSeats), given back when it ends. */
  seat: string;
}

interface WhepSession extends PeerSession, Admitted {
  /** What its video is: H.264 as the stream has it, or VP8 re-encoded (webrtc-h264.ts). */
  path: VideoPath;
  video: MediaStreamTrack;
  audio: MediaStreamTrack;
  feed: StreamFeed;
  /** Video is forwarded from a keyframe on: before it, a decoder has nothing to start from. */
  waitingForKeyframe: boolean;
  /** The viewer session's id in the stream manager, once the connection is up. */
  viewerId: string | null;
}

/**
 * WebRTC playback over WHEP: `POST /whep/<output name>` with a recvonly SDP offer (`Authorization:
 * Bearer <output token>` or `?token=` for a Private stream's output) answers 201 with the answer and the
 * session's `Location`; `DELETE` there ends it (signalling in `webrtc.ts`). While a stream has WebRTC
 * viewers, one ffmpeg (`StreamFeed`) pulls it from nginx-rtmp and encodes VP8 (a keyframe a second)
 * and Opus into RTP on loopback; every viewer's werift track sends those packets, video from a keyframe on.
 *
 * **Warm feeds**: starting a feed (ffmpeg, the push's next keyframe, the probe, the first VP8 keyframe) takes
 * 1–2 s, so a live stream with a WebRTC output served here keeps its feed running without viewers: from
 * when it goes live (or gains the output), and after its last viewer left, until `warmFeeds.idleMs` passed
 * without a viewer. A viewer then joins the running feed at its next keyframe. At most `warmFeeds.limit`
 * feeds run without a viewer (each costs 0.06–0.4 of a core); beyond it a feed starts with its first viewer.
 */
export class WhepPlayback extends WebRtcEndpoint<WhepSession, Admitted> {
  /** The running feeds by input id and video codec: a stream has an H.264 feed, a VP8 one, or both. */
  private readonly feeds = new Map<string, StreamFeed>();
  protected override readonly sendsH264 = true;
  /** The node stops: no feed starts any more (a warm-up may still be waiting for the source's probe). */
  private closing = false;

  constructor(private readonly o: WhepOptions) {
    super('whep', 'a recvonly offer with H.264 or VP8 video and/or Opus audio is expected', o.iceServers);
    o.manager.events.subscribe({
      live: (push) => void this.keepWarm(push),
      ended: (push) => {
        for (const feed of this.feedsOf(push.input.id)) {
          if (feed.push !== push) continue;
          for (const session of [...feed.viewers]) this.end(session);
          this.stopFeed(feed);
        }
      },
      configChanged: (input, parts) => {
        if (!parts.has('outputs')) return;
        const push = o.manager.push(input.id);
        if (push && hasWebRtcOutput(push)) void this.keepWarm(push);
        else for (const feed of this.feedsOf(input.id)) if (feed.viewers.size === 0) this.stopFeed(feed);
      },
    });
  }

  /** The stream's running feeds (at most one per codec). */
  private feedsOf(inputId: string): StreamFeed[] {
    return [...this.feeds.values()].filter((feed) => feed.push.input.id === inputId);
  }

  /** What the stream's WebRTC feeds send, for /metadata: per feed its video, why it is re-encoded, its viewers. */
  describe(inputId: string): { video: string; reencoded: string | null; viewers: number }[] {
    return this.feedsOf(inputId).map((feed) => ({
      video: feed.path.codec === 'H264' ? 'H.264 as it is' : 'VP8 re-encoded',
      reencoded: feed.path.codec === 'VP8' ? feed.path.reason : null,
      viewers: feed.viewers.size,
    }));
  }

  /**
   * How viewers get the stream's video when their offer takes any H.264: as it is, unless the source does not
   * allow it (a ladder's VP8 track only sets the VP8 encoding of viewers who get one). Waits for the source's
   * probe (at most `probeWaitMs`) and a starting ladder's renditions, as the feed does.
   */
  private async sourcePath(push: LiveStream, probeWaitMs = TRACKS_WAIT_MS): Promise<VideoPath> {
    await sourceKnown(push, probeWaitMs);
    const source = h264Source(push.outgoing.main.coding);
    return source.ok ? { codec: 'H264', payloadType: 0 } : { codec: 'VP8', reason: source.reason };
  }

  /** Ends every session and stops every feed (the node stops). */
  override close(): void {
    this.closing = true;
    super.close();
    for (const feed of [...this.feeds.values()]) this.stopFeed(feed);
  }

  /**
   * Starts the feed of a live stream with a WebRTC output, if one more may run without a viewer: the one most
   * viewers will take (H.264 as it is when the source allows it; browsers offer H.264).
   */
  private async keepWarm(push: LiveStream): Promise<void> {
    if (!hasWebRtcOutput(push) || this.feedsOf(push.input.id).some((feed) => feed.push === push && !feed.stopped))
      return;
    // A push's first fragment (which the probe reads) may take a while (WHIP: the ingest's encoder starts first).
    const path = await this.sourcePath(push, TRACKS_LATE_WAIT_MS);
    if (push.ended || this.closing || this.feedsOf(push.input.id).some((feed) => feed.push === push && !feed.stopped))
      return;
    // Still not probed: a guess would likely start a VP8 encoder nobody needs; the first viewer starts its feed.
    if (push.outgoing.main.coding === undefined) return;
    if (this.idleFeeds() >= this.o.warmFeeds.limit) return;
    this.idleFor(this.feed(push, path), this.o.warmFeeds.idleMs);
  }

  /** Feeds running without a viewer. */
  private idleFeeds(): number {
    return [...this.feeds.values()].filter((feed) => feed.viewers.size === 0 && !feed.stopped).length;
  }

  /** A feed without viewers stops after `ms`, unless a viewer came meanwhile. */
  private idleFor(feed: StreamFeed, ms: number): void {
    clearTimeout(feed.idleTimer);
    feed.idleTimer = setTimeout(() => {
      if (feed.viewers.size === 0) this.stopFeed(feed);
    }, ms).unref();
  }

  private stopFeed(feed: StreamFeed): void {
    clearTimeout(feed.idleTimer);
    feed.stop();
    if (this.feeds.get(feed.key) === feed) this.feeds.delete(feed.key);
  }

  protected async admit(
    request: IncomingMessage,
    name: string,
    token: string | null,
    remoteAddress: string | null,
    sessionId: string,
  ): Promise<Admission<Admitted>> {
    const viewer = browserViewer(request, token, remoteAddress);
    const admitted = await this.o.manager.admission.play('WebRTC', name, viewer);
    if (!admitted.ok) {
      this.o.log.info(`WHEP play of ${name} refused: ${admitted.reason}`);
      // A missing or wrong static token is 401 for WHEP, as for WHIP; a refused playback token is 403 with
      // the reason a player shows.
      const status = admitted.status === 403 && !admitted.signed ? 401 : admitted.status;
      return { ok: false, status, message: admitted.reason };
    }
    const { outputId, push, preview } = admitted;
    // A preview credential plays a bounded number of sessions at once (its seat is given back in `closed`).
    if (preview && !this.o.manager.viewers.previewSeats.take(token ?? '', viewerIdOf(sessionId)))
      return { ok: false, status: 429, message: NO_PREVIEW_SEAT };
    return { ok: true, admitted: { outputId, push, token, viewer, preview, seat: viewerIdOf(sessionId) } };
  }

  protected async open(base: PeerSession, admitted: Admitted, offer: string): Promise<WhepSession> {
    const source = await this.sourcePath(admitted.push);
    const path = source.codec === 'H264' ? videoPathFor(admitted.push.outgoing.main.coding, offer) : source;
    const stream = new MediaStream();
    const video = new MediaStreamTrack({ kind: 'video' });
    const audio = new MediaStreamTrack({ kind: 'audio' });
    // Sending transceivers made before the offer is applied take its m-lines of their kind.
    base.pc.addTransceiver(video, { direction: 'sendonly', streams: [stream] });
    base.pc.addTransceiver(audio, { direction: 'sendonly', streams: [stream] });
    const session: WhepSession = {
      ...base,
      ...admitted,
      path,
      video,
      audio,
      feed: this.feed(admitted.push, path),
      waitingForKeyframe: true,
      viewerId: null,
    };
    session.feed.viewers.add(session);
    clearTimeout(session.feed.idleTimer);
    return session;
  }

  /** The offer with only the video format the session sends: werift would answer with every one it knows. */
  protected override offerOf(session: WhepSession, offer: string): string {
    const payloadType = session.path.codec === 'H264' ? session.path.payloadType : offeredVp8(offer);
    return payloadType === null ? offer : withVideoFormatOnly(offer, payloadType);
  }

  /**
   * The console's preview announces its offer (its preview credential only: a warm feed is a viewer's cost
   * that no session counts, so viewers' tokens may not start one): the feed starts now, while the page
   * still loads, instead of with the offer — its ffmpeg, the push's next keyframe and the probe take most
   * of a second. Unused, it stops after FEED_WARM_MS.
   */
  protected override warm(admitted: Admitted) {
    if (!admitted.preview) return { status: 403, message: 'only a preview credential warms up the WebRTC feed' };
    void this.sourcePath(admitted.push).then((path) => {
      const { push } = admitted;
      if (push.ended || this.closing) return;
      const running = this.feeds.get(feedKey(push, path));
      const idle = running?.push === push && running.viewers.size === 0 ? 1 : 0;
      const kept = this.idleFeeds() - idle < this.o.warmFeeds.limit;
      const feed = this.feed(push, path);
      if (feed.viewers.size === 0) this.idleFor(feed, kept ? this.o.warmFeeds.idleMs : FEED_WARM_MS);
    });
    return null;
  }

  /** An offer that did not become a session (a warm-up, an offer not answered) holds no seat. */
  protected override abandoned(id: string): void {
    this.o.manager.viewers.previewSeats.release(viewerIdOf(id));
  }

  protected connected(session: WhepSession): void {
    session.feed.join(session);
    void this.startViewer(session);
  }

  /** The viewer counts as a session of its output once its connection is up (if it still may watch). */
  private async startViewer(session: WhepSession): Promise<void> {
    const again = await this.o.manager.admission.play('WebRTC', session.name, session.viewer);
    if (session.ended) return;
    if (!again.ok || again.push !== session.push) {
      this.end(session);
      return;
    }
    const bytes = peerBytes(session.pc);
    session.viewerId = viewerIdOf(session.id);
    this.o.manager.viewers.start({
      id: session.viewerId,
      inputId: session.push.input.id,
      outputId: session.outputId,
      format: 'WebRTC',
      preview: session.preview,
      ...(again.grant ? { grant: again.grant } : {}),
      ipAddress: session.remoteAddress,
      bytesOut: () => bytes().sent,
      bytesIn: () => bytes().received,
      kick: () => this.end(session),
    });
    this.o.log.info(`WHEP viewer of ${session.name} connected from ${session.remoteAddress ?? 'an unknown address'}`);
  }

  protected closed(session: WhepSession, failure: string | null): void {
    session.video.stop();
    session.audio.stop();
    if (session.viewerId) this.o.manager.viewers.end(session.viewerId);
    this.o.manager.viewers.previewSeats.release(session.seat);
    if (failure) this.o.log.info(`WHEP viewer of ${session.name} left: ${failure}`);
    const { feed } = session;
    feed.viewers.delete(session);
    if (feed.viewers.size > 0 || feed.stopped) return;
    // The last viewer left: the feed stays warm for the next one, if it may (idleFeeds counts it already).
    const warm = hasWebRtcOutput(feed.push) && !feed.push.ended && this.idleFeeds() <= this.o.warmFeeds.limit;
    if (warm) this.idleFor(feed, this.o.warmFeeds.idleMs);
    else this.stopFeed(feed);
  }

  /** The stream's running feed of the path's codec, or a new one. */
  private feed(push: LiveStream, path: VideoPath): StreamFeed {
    const key = feedKey(push, path);
    const running = this.feeds.get(key);
    if (running && running.push === push && !running.stopped) return running;
    const feed = new StreamFeed(push, path, key, this.o, (failure) => {
      if (this.feeds.get(key) === feed) this.feeds.delete(key);
      for (const session of [...feed.viewers]) this.end(session, failure);
    });
    this.feeds.set(key, feed);
    feed.start().catch((error: unknown) => feed.fail(`the WebRTC feed could not start: ${String(error)}`));
    return feed;
  }
}

/**
 * One stream's WebRTC media: an ffmpeg pulls what the stream's viewers get from nginx-rtmp (the push, or
 * its transcoder's top rendition) and sends VP8 and Opus RTP to two loopback UDP sockets of the node, which
 * hand every packet to each connected viewer's tracks. The encoding follows the stream's ladder (its first
 * VP8 and Opus tracks) when it has one. When that source ends while the push goes on (the transcoder
 * started, or gave up), the ffmpeg starts again on the new one and the viewers carry on from a keyframe.
 */
class StreamFeed {
  readonly viewers = new Set<WhepSession>();
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
    private readonly o: WhepOptions,
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
    // H.264 as it is: no video encoder runs (webrtc-h264.ts); else VP8 re-encoded.
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
      `WHEP feed of ${this.push.input.name} started on ${main.rtmpName} (${this.path.codec === 'H264' ? 'H.264 as it is' : `VP8 at ${bitrate} b/s`}; ${kinds})`,
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
      this.o.log.error(`WHEP feed of ${this.push.input.name}: ${failure}`);
      // The stream's messages say why (once a push: each new viewer starts the feed again).
      if (!reportedFailures.has(this.push)) {
        reportedFailures.add(this.push);
        this.o.manager.state(this.push.input.id, {
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
    this.o.log.debug(`WHEP feed of ${this.push.input.name} stopped`);
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
  join(viewer: WhepSession): void {
    if (!viewer.waitingForKeyframe || !this.sinceKeyframe?.length) return;
    viewer.waitingForKeyframe = false;
    for (const packet of catchUp(this.sinceKeyframe)) viewer.video.writeRtp(packet);
  }

  private forwardVideo(data: Buffer): void {
    if (data.length < 12 || isRtcp(data)) return;
    this.respawns = 0;
    if (!this.firstVideo) {
      this.firstVideo = true;
      this.o.log.debug(`WHEP feed of ${this.push.input.name}: first ${this.path.codec} packet`);
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
async function sourceKnown(push: LiveStream, probeWaitMs: number, going = () => true): Promise<void> {
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
const feedKey = (push: LiveStream, path: VideoPath) => `${push.input.id}/${path.codec}`;

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
  manager.state(push.input.id, { message: { level: 'info', text } });
}

/** The viewer session's id of a WHEP session. */
const viewerIdOf = (sessionId: string) => `whep-${sessionId}`;

/** Whether the stream has a WebRTC output this node serves (its feed may be kept warm). */
function hasWebRtcOutput(push: LiveStream): boolean {
  return push.input.outputs.some((output) => output.format === 'WebRTC');
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
