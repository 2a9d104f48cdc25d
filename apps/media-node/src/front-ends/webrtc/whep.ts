import type { IncomingMessage } from 'node:http';
import { MediaStream, MediaStreamTrack } from 'werift';
import { NO_PREVIEW_SEAT } from '../../streams/preview-seats.js';
import { browserViewer, type ViewerRequest } from '../../streams/signed-playback.js';
import type { LiveStream } from '../../streams/types.js';
import { type Admission, type PeerSession, peerBytes, WebRtcEndpoint } from './endpoint.js';
import { webRtcFrontEnd } from './front-end.js';
import { h264Source, offeredVp8, type VideoPath, videoPathFor, withVideoFormatOnly } from './h264.js';
import {
  type FeedOptions,
  feedKey,
  StreamFeed,
  sourceKnown,
  TRACKS_LATE_WAIT_MS,
  TRACKS_WAIT_MS,
} from './whep-feed.js';

export interface WhepOptions extends FeedOptions {
  /** Feeds kept running without a viewer (NodeConfig.warmFeeds). */
  warmFeeds: { limit: number; idleMs: number };
  /** STUN servers (NodeConfig.iceServers). */
  iceServers: readonly string[];
}

/** How long a feed started by a warm-up (WhepPlayback.warm) waits for its first viewer when no more may be kept warm. */
const FEED_WARM_MS = 10_000;

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
  /** What its video is: H.264 as the stream has it, or VP8 re-encoded (h264.ts). */
  path: VideoPath;
  video: MediaStreamTrack;
  audio: MediaStreamTrack;
  feed: StreamFeed<WhepSession>;
  /** Video is forwarded from a keyframe on: before it, a decoder has nothing to start from. */
  waitingForKeyframe: boolean;
  /** The viewer session's id in the stream manager, once the connection is up. */
  viewerId: string | null;
}

/**
 * WebRTC playback over WHEP: `POST /whep/<output name>` with a recvonly SDP offer (`Authorization:
 * Bearer <output token>` or `?token=` for a Private stream's output) answers 201 with the answer and the
 * session's `Location`; `DELETE` there ends it (signalling in `endpoint.ts`). While a stream has WebRTC
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
  /** The running feeds by stream id and video codec: a stream has an H.264 feed, a VP8 one, or both. */
  private readonly feeds = new Map<string, StreamFeed<WhepSession>>();
  protected override readonly sendsH264 = true;
  /** The node stops: no feed starts any more (a warm-up may still be waiting for the source's probe). */
  private closing = false;

  constructor(private readonly o: WhepOptions) {
    super('whep', 'a recvonly offer with H.264 or VP8 video and/or Opus audio is expected', o.iceServers);
    o.manager.events.subscribe({
      live: (push) => void this.keepWarm(push),
      ended: (push) => {
        for (const feed of this.feedsOf(push.assigned.id)) {
          if (feed.push !== push) continue;
          for (const session of [...feed.viewers]) this.end(session);
          this.stopFeed(feed);
        }
      },
      configChanged: (assigned, parts) => {
        if (!parts.has('outputs')) return;
        const push = o.manager.push(assigned.id);
        if (push && hasWebRtcOutput(push)) void this.keepWarm(push);
        else for (const feed of this.feedsOf(assigned.id)) if (feed.viewers.size === 0) this.stopFeed(feed);
      },
    });
  }

  /** The stream's running feeds (at most one per codec). */
  private feedsOf(streamId: string): StreamFeed<WhepSession>[] {
    return [...this.feeds.values()].filter((feed) => feed.push.assigned.id === streamId);
  }

  /** What the stream's WebRTC feeds send, for /metadata: per feed its video, why it is re-encoded, its viewers. */
  describe(streamId: string): { video: string; reencoded: string | null; viewers: number }[] {
    return this.feedsOf(streamId).map((feed) => ({
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
    if (!hasWebRtcOutput(push) || this.feedsOf(push.assigned.id).some((feed) => feed.push === push && !feed.stopped))
      return;
    // A push's first fragment (which the probe reads) may take a while (WHIP: the ingest's encoder starts first).
    const path = await this.sourcePath(push, TRACKS_LATE_WAIT_MS);
    if (
      push.ended ||
      this.closing ||
      this.feedsOf(push.assigned.id).some((feed) => feed.push === push && !feed.stopped)
    )
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
  private idleFor(feed: StreamFeed<WhepSession>, ms: number): void {
    clearTimeout(feed.idleTimer);
    feed.idleTimer = setTimeout(() => {
      if (feed.viewers.size === 0) this.stopFeed(feed);
    }, ms).unref();
  }

  private stopFeed(feed: StreamFeed<WhepSession>): void {
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
      streamId: session.push.assigned.id,
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
  private feed(push: LiveStream, path: VideoPath): StreamFeed<WhepSession> {
    const key = feedKey(push, path);
    const running = this.feeds.get(key);
    if (running && running.push === push && !running.stopped) return running;
    const feed = new StreamFeed<WhepSession>(push, path, key, this.o, (failure) => {
      if (this.feeds.get(key) === feed) this.feeds.delete(key);
      for (const session of [...feed.viewers]) this.end(session, failure);
    });
    this.feeds.set(key, feed);
    feed.start().catch((error: unknown) => feed.fail(`the WebRTC feed could not start: ${String(error)}`));
    return feed;
  }
}

/** The viewer session's id of a WHEP session. */
const viewerIdOf = (sessionId: string) => `whep-${sessionId}`;

/** Whether the stream has a WebRTC output this node serves (its feed may be kept warm). */
function hasWebRtcOutput(push: LiveStream): boolean {
  return push.assigned.outputs.some((output) => output.format === 'WebRTC');
}

/** WHEP on the node's HTTP port: WebRTC playback of what an output's viewers get, from nginx-rtmp. */
export const whepFrontEnd = webRtcFrontEnd(
  'whep',
  'WebRTC playback is not available on this node',
  ({ config, manager, log, rtmpUrl }) =>
    new WhepPlayback({
      ffmpeg: config.ffmpeg,
      manager,
      log,
      playUrl: rtmpUrl,
      warmFeeds: config.warmFeeds,
      iceServers: config.iceServers,
    }),
);
