import { request } from 'node:http';
import { RTCPeerConnection } from 'werift';

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
