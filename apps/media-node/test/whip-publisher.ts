import { createSocket } from 'node:dgram';
import { MediaStreamTrack, RTCPeerConnection, type RTCRtpSender, RtpPacket } from 'werift';
import { freePort, pushTestPatternVp8 } from './harness.js';

/** The test pattern's VP8 source lasts 60 s (pushTestPatternVp8): `feed()` starts a new one before then. */
export const SOURCE_LIFE_MS = 55_000;

/**
 * One WHIP session of a werift publisher (as a browser or OBS runs one), sending ffmpeg's VP8 test pattern once
 * `feed()` is called.
 */
export interface WhipPublisher {
  pc: RTCPeerConnection;
  /** The session's Location, as the node answered it. */
  location: string;
  /** Starts the VP8 test pattern (again: a source lasts SOURCE_LIFE_MS). */
  feed(): void;
  /**
   * Why the session is over for the publisher, or null while it goes on: its connection failed or closed, or the node
   * ended it with DTLS's close_notify (RFC 9725: how a WHIP endpoint ends a session it terminates).
   */
  lost(): string | null;
  /** What its sender sent so far (RTP headers and payloads, retransmissions included). */
  sent(): Promise<number>;
  close(): Promise<void>;
}

/** What a sender's statistics say it sent. */
async function sentBy(sender: RTCRtpSender): Promise<number> {
  const stats = await sender.getStats().catch(() => null);
  let sent = 0;
  for (const each of stats?.values() ?? []) {
    const outbound = each as {
      type: string;
      bytesSent?: number;
      headerBytesSent?: number;
      retransmittedBytesSent?: number;
    };
    if (outbound.type === 'outbound-rtp')
      sent = (outbound.bytesSent ?? 0) + (outbound.headerBytesSent ?? 0) + (outbound.retransmittedBytesSent ?? 0);
  }
  return sent;
}

/**
 * Offers a VP8 publication to `whip` (with `token` as its bearer, if any) and applies the node's answer (after
 * `answered`, when given: what a test does between the node's answer and the connection): the session, or the status
 * of the node's refusal (0: no answer).
 */
export async function publishWhip(
  whip: string,
  token: string | null,
  answered?: () => Promise<void>,
): Promise<WhipPublisher | { refused: number }> {
  const rtpPort = await freePort();
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(rtpPort, '127.0.0.1', resolve));
  const track = new MediaStreamTrack({ kind: 'video' });
  socket.on('message', (data) => track.writeRtp(RtpPacket.deSerialize(data)));
  const pc = new RTCPeerConnection({ iceAdditionalHostAddresses: ['127.0.0.1'], iceUseIpv6: false });
  let source: { stop(): void } | null = null;
  const close = async () => {
    source?.stop();
    await pc.close().catch(() => undefined);
    socket.close();
  };
  try {
    const { sender } = pc.addTransceiver(track, { direction: 'sendonly' });
    await pc.setLocalDescription(await pc.createOffer());
    const answer = await fetch(whip, {
      method: 'POST',
      headers: { 'content-type': 'application/sdp', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: pc.localDescription?.sdp,
      signal: AbortSignal.timeout(10_000),
    }).catch(() => null);
    if (answer?.status !== 201) {
      await close();
      return { refused: answer?.status ?? 0 };
    }
    const sdp = await answer.text();
    await answered?.();
    await pc.setRemoteDescription({ type: 'answer', sdp });
    return {
      pc,
      location: answer.headers.get('location') ?? '',
      feed() {
        source?.stop();
        source = pushTestPatternVp8(rtpPort);
      },
      lost() {
        if (['failed', 'closed', 'disconnected'].includes(pc.connectionState))
          return `connection ${pc.connectionState}`;
        // werift's peer connection stays connected when its DTLS transport was closed by the node's close_notify.
        if (sender.dtlsTransport.state === 'closed') return 'closed by the node (DTLS close_notify)';
        return null;
      },
      sent: () => sentBy(sender),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
