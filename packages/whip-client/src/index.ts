import { request } from 'node:http';
import { RTCPeerConnection, RTCRtpCodecParameters, useOPUS, useVP8 } from 'werift';

/**
 * WHIP and WHEP from a client's side, without a browser: a real SDP offer and its POST. The media node's
 * tests and bench/offers.bench.mjs send offers with these (bench may import no file of an app).
 */

/** A real offer (werift's, as a browser's without trickle) with video and audio, its connection dropped at once. */
export async function offerSdp(direction: 'sendonly' | 'recvonly'): Promise<string> {
  const pc = new RTCPeerConnection({ iceAdditionalHostAddresses: ['127.0.0.1'], iceUseIpv6: false });
  pc.addTransceiver('video', { direction });
  pc.addTransceiver('audio', { direction });
  await pc.setLocalDescription(await pc.createOffer());
  const sdp = pc.localDescription?.sdp ?? '';
  await pc.close();
  return sdp;
}

export interface OfferAnswer {
  /** The HTTP status; 0 when no answer came (refused, reset). */
  status: number;
  /** The session's address (201). */
  location: string | null;
  /** When to try again (429, 503). */
  retryAfter: string | null;
}

/**
 * POSTs a WHIP/WHEP offer from `localAddress` (any 127.x address is another client on loopback); never
 * rejects: a request that got no answer is status 0. The answer's body is read and dropped.
 */
export function postOffer(url: string, sdp: string, localAddress = '127.0.0.1'): Promise<OfferAnswer> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/sdp', 'content-length': Buffer.byteLength(sdp) },
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            location: (response.headers.location as string | undefined) ?? null,
            retryAfter: (response.headers['retry-after'] as string | undefined) ?? null,
          }),
        );
      },
    );
    req.on('error', () => resolve({ status: 0, location: null, retryAfter: null }));
    req.end(sdp);
  });
}

/** What a WHEP viewer (whepViewer) offers for video: H.264 as browsers offer it, and VP8; or VP8 only. */
export type WhepVideoOffer = 'h264+vp8' | 'vp8';

/** The payload types whepViewer offers: Constrained Baseline, then High (H.264, packetization mode 1), then VP8. */
export const WHEP_OFFER_PAYLOAD_TYPES = { baseline: 102, high: 112, vp8: 96 } as const;

export interface WhepViewer {
  pc: RTCPeerConnection;
  /** The answer's SDP. */
  answer: string;
  /** RTP packets received so far, the video codec they came in (lower case mime type), and the first video payloads. */
  got: { video: number; audio: number; codec: string; firstVideoPayloads: Buffer[] };
  /** Ends the session (DELETE) and closes the connection. */
  close(): Promise<void>;
}

/**
 * A WHEP viewer (werift, recvonly video and audio) that plays `url`: its offer, the answer applied, the packets
 * counted. Throws when the offer is not answered with 201.
 */
export async function whepViewer(url: string, video: WhepVideoOffer): Promise<WhepViewer> {
  const pt = WHEP_OFFER_PAYLOAD_TYPES;
  const h264 = (payloadType: number, profileLevelId: string) =>
    new RTCRtpCodecParameters({
      mimeType: 'video/H264',
      clockRate: 90000,
      payloadType,
      rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }],
      parameters: `level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=${profileLevelId}`,
    });
  const vp8 = useVP8({ payloadType: pt.vp8 });
  const pc = new RTCPeerConnection({
    iceAdditionalHostAddresses: ['127.0.0.1'],
    iceUseIpv6: false,
    codecs: {
      video: video === 'vp8' ? [vp8] : [h264(pt.baseline, '42e01f'), h264(pt.high, '64001f'), vp8],
      audio: [useOPUS()],
    },
  });
  pc.addTransceiver('video', { direction: 'recvonly' });
  pc.addTransceiver('audio', { direction: 'recvonly' });
  const got: WhepViewer['got'] = { video: 0, audio: 0, codec: '', firstVideoPayloads: [] };
  pc.onTrack.subscribe((track) => {
    track.onReceiveRtp.subscribe((rtp) => {
      if (track.kind === 'audio') {
        got.audio++;
        return;
      }
      got.codec = track.codec?.mimeType.toLowerCase() ?? '';
      // Bounded: the first few only.
      if (got.firstVideoPayloads.length < 5) got.firstVideoPayloads.push(rtp.payload);
      got.video++;
    });
  });
  await pc.setLocalDescription(await pc.createOffer());
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/sdp' },
    body: pc.localDescription?.sdp ?? '',
  });
  const answer = await response.text();
  if (response.status !== 201) {
    await pc.close();
    throw new Error(`the WHEP offer was answered ${response.status}: ${answer}`);
  }
  await pc.setRemoteDescription({ type: 'answer', sdp: answer });
  const session = new URL(response.headers.get('location') ?? '', url);
  // Ends the session as a WHEP player does (a DELETE of its Location), then the connection.
  const close = async () => {
    await fetch(session, { method: 'DELETE' }).catch(() => undefined);
    await pc.close();
  };
  return { pc, answer, got, close };
}
