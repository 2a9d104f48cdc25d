import type { Playback, PlaybackStats } from './playback';
import { endOnPageHide, endSession, sendOffer } from './webrtc-signalling';

/** A WHEP connection on its way up or up: the tracks it received, the node's session once answered. */
interface WhepConnection {
  readonly pc: RTCPeerConnection;
  readonly stream: MediaStream;
  /** Whether a track arrived already (they come while the answer is applied). */
  received: boolean;
  /** Called for each track that arrives. */
  onTrack: () => void;
  /** The session's URL (its Location, for DELETE); rejects when the node refused the offer. */
  readonly session: Promise<string | null>;
  /** Closes the peer connection and ends the session, now or once it is answered. */
  close(): void;
}

/** A peer connection to receive VP8 video and Opus audio, its offer being made. */
interface Receiver {
  pc: RTCPeerConnection;
  offered: Promise<void>;
}

function receiver(): Receiver {
  const pc = new RTCPeerConnection();
  pc.addTransceiver('video', { direction: 'recvonly' });
  pc.addTransceiver('audio', { direction: 'recvonly' });
  return { pc, offered: pc.createOffer().then((offer) => pc.setLocalDescription(offer)) };
}

/**
 * The receiver's recvonly offer POSTed to the output's signalling URL with the credential as a Bearer token;
 * the session ends with a keepalive DELETE when the page goes away.
 */
function connectWhep(url: string, token: string, { pc, offered }: Receiver = receiver()): WhepConnection {
  let closed = false;
  let unwatch = () => {};
  /** The session once answered (undefined before). */
  let answered: string | null | undefined;
  const session = offered
    .then(() => sendOffer(pc, url, token))
    .then(
      (resource) => {
        answered = resource;
        if (closed) void (resource && endSession(resource, token));
        else unwatch = endOnPageHide(resource, token);
        return resource;
      },
      (error: unknown) => {
        pc.close();
        throw error;
      },
    );
  const connection: WhepConnection = {
    pc,
    stream: new MediaStream(),
    received: false,
    onTrack: () => {},
    session,
    close() {
      if (closed) return;
      closed = true;
      unwatch();
      pc.close();
      // Not answered yet: the session ends once it is (above).
      if (answered) void endSession(answered, token);
    },
  };
  pc.ontrack = (event) => {
    connection.stream.addTrack(event.track);
    connection.received = true;
    connection.onTrack();
  };
  return connection;
}

/** Connections opened before the player was there (preconnectWhep), by WHEP URL, until it takes them. */
const early = new Map<string, WhepConnection>();
/** An early connection no player took within this is closed (the card never showed: the stream is not live). */
const UNCLAIMED_MS = 10_000;

/** Where an early connection goes: the default output's WHEP URL and the preview credential. */
export interface WhepTarget {
  url: string;
  token: string;
}

/**
 * Opens the WHEP connection the dashboard's Preview card is about to play, while the page is still loading
 * (app/prefetch-data.ts): the peer connection and its offer at once, the offer POSTed as soon as `target`
 * (the outputs and the preview credential) is known, before the stream is known to be live or the player's
 * code has arrived; playWhep takes it over instead of offering anew, so the picture can be there the moment
 * the player shows. No target (no WebRTC output), a refusal (a stream that is not live), or no player
 * taking it within 10 s closes it.
 */
export function preconnectWhep(target: Promise<WhepTarget | null>): void {
  // A browser without WebRTC (Firefox can turn it off) has nothing to open early; the player says so itself.
  if (typeof RTCPeerConnection === 'undefined') return;
  const ahead = receiver();
  void target.then(
    (found) => {
      if (!found || early.has(found.url)) return ahead.pc.close();
      const { url, token } = found;
      const connection = connectWhep(url, token, ahead);
      early.set(url, connection);
      const drop = () => {
        if (early.get(url) !== connection) return;
        early.delete(url);
        connection.close();
      };
      connection.session.catch(drop);
      setTimeout(drop, UNCLAIMED_MS);
    },
    () => ahead.pc.close(),
  );
}

/** What `onLost` hears when a playing connection is lost (its words make it a network error in the beacon). */
export const WHEP_LOST = 'the network connection to the media node was lost';
/** How long a connection may stay `disconnected` (ICE may come back by itself) before it counts as lost. */
export const WHEP_DISCONNECTED_GRACE_MS = 2_000;

/**
 * WebRTC playback over WHEP with the browser's own RTCPeerConnection (the one preconnectWhep opened for this
 * URL, else a new one); the answer's Location is the session, DELETEd on close. `onLost` hears once when the
 * connection fails or stays disconnected for WHEP_DISCONNECTED_GRACE_MS — the node ended the session (its push
 * left) or the network went — so a player can start again rather than show the last frame for good.
 */
export async function playWhep(
  url: string,
  token: string,
  video: HTMLVideoElement,
  signal?: AbortSignal,
  onLost?: (reason: string) => void,
): Promise<Playback> {
  const connection = early.get(url) ?? connectWhep(url, token);
  early.delete(url);
  const { pc, stream } = connection;
  // The tracks may have come before the player (an early connection) or come while the answer is applied:
  // by then the user may have picked another output, whose playback owns the element (taking it back would
  // detach hls.js's Media Source for good).
  const show = () => {
    if (!signal?.aborted) video.srcObject = stream;
  };
  connection.onTrack = show;
  if (connection.received) show();
  let lostTimer: ReturnType<typeof setTimeout> | undefined;
  const watchState = () => {
    clearTimeout(lostTimer);
    if (pc.connectionState === 'failed') lost();
    else if (pc.connectionState === 'disconnected') lostTimer = setTimeout(lost, WHEP_DISCONNECTED_GRACE_MS);
  };
  const unwatch = () => {
    clearTimeout(lostTimer);
    pc.removeEventListener('connectionstatechange', watchState);
  };
  const lost = () => {
    unwatch();
    onLost?.(WHEP_LOST);
  };
  const close = () => {
    unwatch();
    connection.close();
    if (video.srcObject === stream) video.srcObject = null;
  };
  try {
    await connection.session;
  } catch (error) {
    close();
    throw error;
  }
  if (onLost) pc.addEventListener('connectionstatechange', watchState);
  let last: { bytes: number; at: number } | null = null;
  return {
    close,
    renditions: () => [],
    pick: () => {},
    async stats(): Promise<PlaybackStats> {
      const report = await pc.getStats();
      let inbound: Record<string, number> | null = null;
      let rtt: number | null = null;
      report.forEach((entry: Record<string, unknown>) => {
        if (entry.type === 'inbound-rtp' && entry.kind === 'video') inbound = entry as Record<string, number>;
        if (entry.type === 'candidate-pair' && entry.nominated && typeof entry.currentRoundTripTime === 'number')
          rtt = entry.currentRoundTripTime;
      });
      const video = inbound as Record<string, number> | null;
      const now = { bytes: video?.bytesReceived ?? 0, at: performance.now() };
      const bitrate = last && now.at > last.at ? ((now.bytes - last.bytes) * 8 * 1000) / (now.at - last.at) : null;
      last = now;
      // The jitter buffer's mean delay plus half the round trip: what the player adds to the sender's time.
      const buffered =
        video?.jitterBufferEmittedCount && video.jitterBufferDelay !== undefined
          ? video.jitterBufferDelay / video.jitterBufferEmittedCount
          : null;
      const rttSeconds = rtt as number | null;
      return {
        width: video?.frameWidth ?? null,
        height: video?.frameHeight ?? null,
        fps: video?.framesPerSecond ?? null,
        bitrate,
        rttMs: rttSeconds === null ? null : rttSeconds * 1000,
        jitterMs: video?.jitter === undefined ? null : video.jitter * 1000,
        latencySeconds: buffered === null ? null : buffered + (rttSeconds ?? 0) / 2,
        framesDecoded: video?.framesDecoded ?? null,
      };
    },
  };
}
