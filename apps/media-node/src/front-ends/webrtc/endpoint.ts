import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type RTCInboundRtpStreamStats, RTCPeerConnection, RTCRtpCodecParameters } from 'werift';
import { text } from '../../http-answer.js';
import type { TransportStats } from '../../streams/types.js';
import { pathAfterRoute, type RouteHandler } from '../http/server.js';
import { closePeer } from './dtls-close.js';
import { H264 } from './h264.js';
import { OFFER_RETRY_AFTER_SECONDS, type OfferSlot, PendingOffers } from './pending-offers.js';

/**
 * What is shared by WebRTC ingest (WHIP) and playback (WHEP): the codecs, the peer connection, and the
 * HTTP signalling of RFC 9725 / the WHEP draft, which are the same for both directions.
 */

/** The codecs the node negotiates: VP8 video and Opus audio both ways; WHEP also H.264 (h264.ts). */
export const VP8 = { payloadType: 96, mimeType: 'video/VP8', clockRate: 90000, rtpmap: 'VP8/90000' } as const;
export const OPUS = {
  payloadType: 111,
  mimeType: 'audio/opus',
  clockRate: 48000,
  channels: 2,
  rtpmap: 'opus/48000/2',
} as const;

/** A WebRTC connection that stays disconnected this long is over. */
const DISCONNECT_GRACE_MS = 5000;
/** An answered offer whose connection does not come up within this is dropped. */
const CONNECT_TIMEOUT_MS = 20_000;
/** The last segment of a warm-up request (see WebRtcEndpoint.warm); session ids are 22 base64url characters. */
const WARM = 'warm';

/**
 * werift's peer connection with VP8 (and H.264 when `h264`: WHEP) and Opus; host candidates include loopback, IPv4 only. STUN only
 * from `iceServers` (WEBRTC_ICE_SERVERS): werift's default asks Google's server on every answer, which
 * tells a third party of every session and stalls answers up to 5 s where it cannot be reached.
 */
export function createPeerConnection(iceServers: readonly string[], h264 = false): RTCPeerConnection {
  const feedback = () => [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }];
  return new RTCPeerConnection({
    iceServers: iceServers.map((urls) => ({ urls })),
    codecs: {
      video: [
        new RTCRtpCodecParameters({
          mimeType: VP8.mimeType,
          clockRate: VP8.clockRate,
          payloadType: VP8.payloadType,
          rtcpFeedback: feedback(),
        }),
        // WHEP only (h264.ts): werift answers with the offer's own format, its payload type and fmtp.
        ...(h264
          ? [
              new RTCRtpCodecParameters({
                mimeType: H264.mimeType,
                clockRate: H264.clockRate,
                rtcpFeedback: feedback(),
              }),
            ]
          : []),
      ],
      audio: [
        new RTCRtpCodecParameters({
          mimeType: OPUS.mimeType,
          clockRate: OPUS.clockRate,
          channels: OPUS.channels,
          payloadType: OPUS.payloadType,
        }),
      ],
    },
    iceAdditionalHostAddresses: ['127.0.0.1'],
    iceUseIpv6: false,
  });
}

/**
 * A counter of the bytes a connected peer connection sends and receives as SRTP/SRTCP (the media that
 * crosses the network); it keeps counting what was sent until the connection closed.
 */
/**
 * The offer without its mDNS host candidates (`<uuid>.local`): browsers hide their addresses behind them
 * (Firefox always, Chromium on a page without camera permission), and the node cannot resolve them — werift
 * would try multicast DNS, drop them, and with `a=end-of-candidates` fail ICE at once, before answering.
 * Without them (and without end-of-candidates) the node waits for the browser's connectivity checks, which
 * tell it the browser's address (a peer-reflexive candidate), as they do for any browser behind a NAT.
 */
export function withoutMdnsCandidates(sdp: string): string {
  const lines = sdp.split(/\r?\n/);
  const mdns = (line: string) => /^a=candidate:\S+ \d+ \S+ \d+ \S+\.local /i.test(line);
  if (!lines.some(mdns)) return sdp;
  return lines.filter((line) => !mdns(line) && line !== 'a=end-of-candidates').join('\r\n');
}

export function peerBytes(pc: RTCPeerConnection): () => { sent: number; received: number } {
  const transports = new Set(pc.getTransceivers().map((transceiver) => transceiver.dtlsTransport));
  return () => {
    let sent = 0;
    let received = 0;
    for (const transport of transports) {
      sent += transport.bytesSent;
      received += transport.bytesReceived;
    }
    return { sent, received };
  };
}

/**
 * What a receiving peer connection measured so far: RTP packets received and lost over every incoming
 * track (werift's receive statistics: a loss is a gap in the sequence numbers), and the round-trip time
 * of the connection's latest ICE check (connectivity or consent freshness, about every 5 s: a receiver
 * gets no RTCP that would time its round trip, its publisher sends only sender reports).
 */
export function peerReceiveStats(pc: RTCPeerConnection): () => TransportStats {
  return () => {
    let packetsReceived = 0;
    let packetsLost = 0;
    let rtt: number | undefined;
    for (const transceiver of pc.getTransceivers()) {
      for (const stats of transceiver.receiver.collectStats(0)) {
        if (stats.type !== 'inbound-rtp') continue;
        const inbound = stats as RTCInboundRtpStreamStats;
        packetsReceived += inbound.packetsReceived ?? 0;
        // Duplicates can make the count negative for a while.
        packetsLost += Math.max(0, inbound.packetsLost ?? 0);
      }
      rtt ??= transceiver.dtlsTransport.iceTransport.connection.nominated?.rtt;
    }
    return {
      packetsReceived,
      packetsLost,
      packetsRetransmitted: null,
      packetsDropped: null,
      rttMs: rtt === undefined ? null : rtt * 1000,
    };
  };
}

/** One WHIP or WHEP session: its peer connection, from the POST of the offer until it ends. */
export interface PeerSession {
  readonly id: string;
  /** The stream or output name of the URL. */
  readonly name: string;
  readonly pc: RTCPeerConnection;
  readonly remoteAddress: string | null;
  /** The WebRTC connection came up (at least once). */
  connected: boolean;
  ended: boolean;
}

/** A WHIP or WHEP session's id, the last segment of its Location: 16 random bytes (128 bits), base64url. */
export const newSessionId = (): string => randomBytes(16).toString('base64url');

export type Admission<A> = { ok: true; admitted: A } | { ok: false; status: number; message: string };

/**
 * An HTTP signalling endpoint at `/<path>/<name>`: `POST` with an SDP offer answers 201 with the SDP
 * answer (every candidate of the node included: no trickle, so PATCH is 405) and the session's
 * `Location: /<path>/<name>/<session>`; `DELETE` there ends the session. Subclasses admit the offer,
 * attach their media to the peer connection, and act when it is connected and when it ends; a
 * connection that fails, closes, stays disconnected 5 s or never comes up within 20 s ends the session.
 */
export abstract class WebRtcEndpoint<S extends PeerSession, A> {
  private readonly sessions = new Map<string, S>();
  /** The endpoint sends H.264 too (WHEP: h264.ts); its `offerOf` then leaves one video format in the offer. */
  protected readonly sendsH264: boolean = false;
  /** Offers not connected yet, bounded per client address and per name (429 beyond). */
  readonly pending = new PendingOffers();
  /** What each session holds besides its peer connection until it ends: its offer's slot and its timers. */
  private readonly holds = new Map<string, { slot: OfferSlot; timers: Set<NodeJS.Timeout> }>();

  constructor(
    private readonly path: 'whip' | 'whep',
    /** What the node accepts, for the answer to an offer that cannot be answered. */
    private readonly accepts: string,
    /** STUN servers for the node's public address (NodeConfig.iceServers). */
    private readonly iceServers: readonly string[],
  ) {}

  /**
   * Whether the offer to `name` may go on (token, stream state), or the status and message refusing it;
   * `sessionId` is the id the session will have (a warm-up's is never used).
   */
  protected abstract admit(
    request: IncomingMessage,
    name: string,
    token: string | null,
    remoteAddress: string | null,
    sessionId: string,
  ): Promise<Admission<A>>;
  /** The endpoint's session around the new peer connection, before the offer (`offer`, its SDP) is applied. */
  protected abstract open(base: PeerSession, admitted: A, offer: string): Promise<S>;
  /** The offer as the session's peer connection is to take it (WHEP keeps the one video format it sends). */
  protected offerOf(_session: S, offer: string): string {
    return offer;
  }
  /** The WebRTC connection is up (the first time). */
  protected abstract connected(session: S): void;

  /**
   * `POST <path>/<name>/warm`: gets ready for a session that is about to come (WHEP: starts the stream's
   * feed). A refusal, or null when done; nothing to warm up by default.
   */
  protected warm(_admitted: A): { status: number; message: string } | null {
    return { status: 405, message: 'Use POST with an SDP offer' };
  }
  /**
   * An offer that did not become a session (refused, a warm-up, not answered, an error): whatever `admit` took for
   * session `id` is given back. Nothing by default.
   */
  protected abandoned(_id: string): void {}
  /**
   * The session is over (its peer connection is closing): release what it holds. `deliberate`: the peer
   * ended it with a DELETE on its Location, not a lost or failed connection.
   */
  protected abstract closed(session: S, failure: string | null, deliberate: boolean): void;

  /** Ends a session once: closes its peer connection and lets the subclass clean up. */
  end(session: S, failure: string | null = null, deliberate = false): void {
    if (session.ended) return;
    session.ended = true;
    this.sessions.delete(session.id);
    this.release(session.id);
    // Ended here rather than by the peer's DELETE: the peer hears it at once (else it sends on until ICE consent
    // expires, 30 s later, into a session nobody counts).
    void closePeer(session.pc, session.connected && !deliberate);
    this.closed(session, failure, deliberate);
  }

  close(): void {
    for (const session of [...this.sessions.values()]) this.end(session);
  }

  /** The session's offer slot and timers are given back (it ended, or never became one). */
  private release(id: string): void {
    const held = this.holds.get(id);
    if (!held) return;
    this.holds.delete(id);
    held.slot.release();
    for (const timer of held.timers) clearTimeout(timer);
  }

  /** A timer of the session, cleared when it ends. */
  private timer(id: string, ms: number, run: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.holds.get(id)?.timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    this.holds.get(id)?.timers.add(timer);
    return timer;
  }

  /** Sessions (answered offers, connected or not) going on now. */
  get size(): number {
    return this.sessions.size;
  }

  /** Its answers on its HTTP route (`/whip/…`, `/whep/…`). */
  readonly route: RouteHandler = (request, response, { url, segments, body }) =>
    this.handle(request, response, pathAfterRoute(segments), url.searchParams, body);

  async handle(
    request: IncomingMessage,
    response: ServerResponse,
    segments: string[],
    query: URLSearchParams,
    body: Buffer,
  ): Promise<void> {
    const [name, sessionId] = segments;
    const label = this.path.toUpperCase();
    // Web pages on other origins publish and play: the router answers their preflight and makes every
    // answer, a refusal too, theirs to read (http/routes.ts).
    if (!name || segments.length > 2) return text(response, 404, 'Not found');
    if (request.method === 'DELETE' && sessionId) {
      const session = this.sessions.get(sessionId);
      if (!session || session.name !== name) return text(response, 404, `No such ${label} session`);
      this.end(session, null, true);
      response.writeHead(200);
      response.end();
      return;
    }
    if (request.method === 'PATCH' && sessionId) {
      // Trickle ICE is not needed: the answer carries every candidate of this node.
      response.writeHead(405, { allow: 'DELETE' });
      response.end();
      return;
    }
    const warming = request.method === 'POST' && sessionId === WARM;
    if (request.method !== 'POST' || (sessionId && !warming)) return text(response, 405, 'Use POST with an SDP offer');
    if (!warming && !(request.headers['content-type'] ?? '').startsWith('application/sdp'))
      return text(response, 415, 'The offer must be application/sdp');
    const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim() ?? null;
    const remoteAddress = (request.socket.remoteAddress ?? '').replace(/^::ffff:/, '') || null;
    // The session's id is its Location, a capability (a DELETE there ends it): 128 random bits.
    const id = newSessionId();
    // Bounded before anything is spent on it: offers waiting to connect, per address and per name.
    const slot = this.pending.take(remoteAddress, name);
    if ('refused' in slot) {
      response.setHeader('retry-after', String(OFFER_RETRY_AFTER_SECONDS));
      return text(response, 429, slot.refused);
    }
    this.holds.set(id, { slot, timers: new Set() });
    try {
      await this.offer(request, response, {
        id,
        name,
        remoteAddress,
        token: bearer ?? query.get('token'),
        warming,
        body,
      });
    } finally {
      // Whatever did not become a session gives its slot back (a session gives it back when it connects or ends).
      if (!this.sessions.has(id) && this.holds.has(id)) {
        this.release(id);
        this.abandoned(id);
      }
    }
  }

  private async offer(
    request: IncomingMessage,
    response: ServerResponse,
    asked: {
      id: string;
      name: string;
      remoteAddress: string | null;
      token: string | null;
      warming: boolean;
      body: Buffer;
    },
  ): Promise<void> {
    const { id, name, remoteAddress, warming, body } = asked;
    const label = this.path.toUpperCase();
    const admission = await this.admit(request, name, asked.token, remoteAddress, id);
    if (!admission.ok) return text(response, admission.status, admission.message);
    if (warming) {
      const refused = this.warm(admission.admitted);
      if (refused) return text(response, refused.status, refused.message);
      response.writeHead(204);
      response.end();
      return;
    }

    const pc = createPeerConnection(this.iceServers, this.sendsH264);
    const offer = withoutMdnsCandidates(body.toString());
    const session = await this.open(
      { id, name, pc, remoteAddress, connected: false, ended: false },
      admission.admitted,
      offer,
    );
    this.sessions.set(id, session);
    let disconnectTimer: NodeJS.Timeout | null = null;
    pc.connectionStateChange.subscribe((state) => {
      if (state === 'connected') {
        if (disconnectTimer) clearTimeout(disconnectTimer);
        disconnectTimer = null;
        if (!session.connected && !session.ended) {
          session.connected = true;
          // Connected: no longer a pending offer.
          this.holds.get(id)?.slot.release();
          this.connected(session);
        }
      } else if (state === 'failed') {
        this.end(session, 'the WebRTC connection failed');
      } else if (state === 'closed') {
        this.end(session);
      } else if (state === 'disconnected' && !disconnectTimer) {
        disconnectTimer = this.timer(id, DISCONNECT_GRACE_MS, () =>
          this.end(session, 'the WebRTC connection was lost'),
        );
      }
    });
    try {
      await pc.setRemoteDescription({ type: 'offer', sdp: this.offerOf(session, offer) });
      const answer = await pc.createAnswer();
      await pc.setLocalDescription(answer);
      if (!pc.getTransceivers().some((transceiver) => transceiver.codecs.length > 0))
        throw new Error('no media in the offer uses these codecs');
    } catch (error) {
      this.end(session);
      return text(
        response,
        400,
        `The offer cannot be answered (${this.accepts}): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (session.ended) return text(response, 409, `The ${label} session ended before it was answered`);
    response.writeHead(201, {
      'content-type': 'application/sdp',
      location: `/${this.path}/${encodeURIComponent(name)}/${id}`,
    });
    response.end(pc.localDescription?.sdp ?? '');
    this.timer(id, CONNECT_TIMEOUT_MS, () => {
      if (!session.connected) this.end(session, 'the WebRTC connection did not come up');
    });
  }
}
