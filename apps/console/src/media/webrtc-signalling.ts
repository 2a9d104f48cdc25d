import { NODE_UNREACHABLE, nodeMessage } from './node-message';

/** The node refused a WHIP or WHEP offer; the message is its reason. */
export class SignallingError extends Error {}

/** The node's refusal as a sentence (its JSON `message`, else the status). */
export async function refusal(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  return nodeMessage(text) ?? `the node answered ${response.status}`;
}

/**
 * Non-trickle WHIP/WHEP signalling: the offer POSTed to `url`, the Bearer token when there is one, the answer
 * applied. Resolves with the session's URL (the Location, for DELETE).
 *
 * The offer goes at once, without waiting for ICE to gather the browser's candidates: the node needs none.
 * The browser's connectivity checks to the node's candidates (in the answer) tell the node its address (a
 * peer-reflexive candidate), as they must anyway behind a NAT or with the mDNS names browsers hide their
 * addresses behind. Waiting for the first host candidate cost ~0.1 s before each offer (0.2 s more for
 * gathering to complete).
 */
export async function offerTo(pc: RTCPeerConnection, url: string, token: string | null): Promise<string | null> {
  await pc.setLocalDescription(await pc.createOffer());
  return sendOffer(pc, url, token);
}

/** offerTo once the offer is the peer connection's local description (made ahead of knowing where it goes). */
export async function sendOffer(pc: RTCPeerConnection, url: string, token: string | null): Promise<string | null> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/sdp', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: pc.localDescription?.sdp ?? '',
  }).catch(() => {
    throw new SignallingError(NODE_UNREACHABLE);
  });
  if (response.status !== 201) throw new SignallingError(await refusal(response));
  const location = response.headers.get('location');
  const resource = location ? new URL(location, url).toString() : null;
  try {
    await pc.setRemoteDescription({ type: 'answer', sdp: await response.text() });
  } catch (error) {
    if (resource) void endSession(resource, token);
    throw error;
  }
  return resource;
}

/**
 * Ends a WHIP/WHEP session (DELETE on its Location); the node ends it on its own when this cannot reach it.
 * `keepalive` lets the request outlive the page (see endOnPageHide).
 */
export function endSession(resource: string, token: string | null, keepalive = false): Promise<unknown> {
  return fetch(resource, {
    method: 'DELETE',
    ...(keepalive ? { keepalive } : {}),
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
  }).catch(() => null);
}

/**
 * Ends the session when the page goes away (closed, reloaded, left): a keepalive DELETE outlives the page,
 * so the node ends the session at once instead of when ICE gives up on the gone browser (~30 s of a
 * counted preview, or of a stream still "live" with no picture). Answers what stops watching.
 */
export function endOnPageHide(resource: string | null, token: string | null): () => void {
  if (!resource) return () => {};
  const hide = () => void endSession(resource, token, true);
  window.addEventListener('pagehide', hide);
  return () => window.removeEventListener('pagehide', hide);
}
