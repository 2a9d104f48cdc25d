import { createSocket } from 'node:dgram';
import type { StreamInput } from '@streamcloud/contract';
import { MediaStreamTrack, RTCPeerConnection, type RTCRtpSender, RtpPacket } from 'werift';
import { freePort, pushTestPatternVp8, sleep, tcpListening } from '../harness.js';
import { uriOf } from '../streams.js';
import type { Encoder } from './world.js';

/** The test pattern's VP8 source lasts 60 s (pushTestPatternVp8): a new one takes its place before then. */
const SOURCE_LIFE_MS = 55_000;

/**
 * A WHIP encoder as a browser or OBS runs one: a werift publisher sends ffmpeg's VP8 test pattern (RTP on a local
 * port) to the stream's WHIP endpoint, and when its session is lost (ICE failed, the node's port refusing: the node
 * died) it publishes again a second later. Its bytes are the RTP packets its sender sent, headers and payloads (the
 * node counts the RTP packets it received; SRTP's and DTLS's overhead is neither's).
 */
export function startWhipEncoder(stream: StreamInput): Encoder {
  const whip = new URL(uriOf(stream));
  let stopped = false;
  let pushes = 0;
  /** The bytes of the pushes that ended, and of the current one so far. */
  let bytesEnded = 0;
  let bytesCurrent = 0;
  /** What the sender's statistics say it sent: RTP headers and payloads, retransmissions included. */
  const sentBy = async (sender: RTCRtpSender) => {
    const stats = await sender.getStats().catch(() => null);
    for (const each of stats?.values() ?? []) {
      const outbound = each as {
        type: string;
        bytesSent?: number;
        headerBytesSent?: number;
        retransmittedBytesSent?: number;
      };
      if (outbound.type === 'outbound-rtp')
        bytesCurrent =
          (outbound.bytesSent ?? 0) + (outbound.headerBytesSent ?? 0) + (outbound.retransmittedBytesSent ?? 0);
    }
  };
  const publishOnce = async () => {
    const rtpPort = await freePort();
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(rtpPort, '127.0.0.1', resolve));
    const track = new MediaStreamTrack({ kind: 'video' });
    const pc = new RTCPeerConnection({ iceAdditionalHostAddresses: ['127.0.0.1'], iceUseIpv6: false });
    let source: { stop(): void } | null = null;
    try {
      const transceiver = pc.addTransceiver(track, { direction: 'sendonly' });
      await pc.setLocalDescription(await pc.createOffer());
      const answer = await fetch(whip, {
        method: 'POST',
        headers: { 'content-type': 'application/sdp', authorization: `Bearer ${stream.accessToken}` },
        body: pc.localDescription?.sdp,
        signal: AbortSignal.timeout(10_000),
      }).catch(() => null);
      if (answer?.status !== 201) return;
      await pc.setRemoteDescription({ type: 'answer', sdp: await answer.text() });
      socket.on('message', (data) => track.writeRtp(RtpPacket.deSerialize(data)));
      let ended = false;
      // Until the session is lost or the encoder stopped (a stop may come while this push was being set up).
      for (let started = 0; !ended && !stopped; await sleep(500)) {
        if (Date.now() - started > SOURCE_LIFE_MS) {
          source?.stop();
          source = pushTestPatternVp8(rtpPort);
          started = Date.now();
        }
        await sentBy(transceiver.sender);
        const lost = ['failed', 'closed', 'disconnected'].includes(pc.connectionState);
        if (lost || !tcpListening(Number(whip.port))) ended = true;
      }
      await sentBy(transceiver.sender);
    } finally {
      bytesEnded += bytesCurrent;
      bytesCurrent = 0;
      source?.stop();
      await pc.close().catch(() => undefined);
      socket.close();
    }
  };
  const looping = (async () => {
    while (!stopped) {
      pushes++;
      await publishOnce();
      if (!stopped) await sleep(1000);
    }
  })();
  return {
    stream,
    get pushes() {
      return pushes;
    },
    bytes: () => bytesEnded + bytesCurrent,
    async stop() {
      stopped = true;
      await looping;
    },
  };
}
