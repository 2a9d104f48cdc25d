import { NODE_UNREACHABLE, nodeMessage } from './node-message';

/** The longest the browser gathers ICE candidates before the offer goes, when no host candidate comes. */
const GATHER_MS = 1000;
/**
 * After the first host candidate, how long the other interfaces' candidates may take. The console's peer connections
 * have no STUN or TURN server, so host candidates are all there is to gather, and the node (reachable on
 * loopback or the LAN) needs just one of them: it learns the browser's address from its connectivity checks
 * anyway. Waiting for gathering to complete cost ~0.2 s, up to the cap, before each offer.
 */
const MORE_HOSTS_MS = 40;

/** The node refused a WHIP or WHEP offer; the message is its reason. */
export class SignallingError extends Error {}

/**
 * Resolves when ICE gathering completes, shortly after the first host candidate, or after GATHER_MS (what
 * was gathered by then goes in the offer). Call it before setLocalDescription, which starts the gathering.
 */
export function gathered(pc: RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    let grace: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      clearTimeout(timer);
      clearTimeout(grace);
      pc.removeEventListener('icegatheringstatechange', check);
      pc.removeEventListener('icecandidate', candidate);
      resolve();
    };
    const check = () => {
      if (pc.iceGatheringState === 'complete') done();
    };
    const candidate = (event: Event) => {
      if ((event as RTCPeerConnectionIceEvent).candidate?.type === 'host') grace ??= setTimeout(done, MORE_HOSTS_MS);
    };
    const timer = setTimeout(done, GATHER_MS);
    pc.addEventListener('icegatheringstatechange', check);
    pc.addEventListener('icecandidate', candidate);
  });
}

/** The node's refusal as a sentence (its JSON `message`, else the status). */
export async function refusal(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  return nodeMessage(text) ?? `the node answered ${response.status}`;
}

/**
 * Non-trickle WHIP/WHEP signalling: the offer (with what ICE gathered) POSTed to `url`, the Bearer token
 * when there is one, the answer applied. Resolves with the session's URL (the Location, for DELETE).
 */
export async function offerTo(pc: RTCPeerConnection, url: string, token: string | null): Promise<string | null> {
  const ready = gathered(pc);
  await pc.setLocalDescription(await pc.createOffer());
  await ready;
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
 * Tells a WHEP endpoint that an offer is about to come, with the preview credential: the node starts the
 * stream's feed (its ffmpeg, the push's next keyframe) while the page still loads. Best effort.
 */
export function warmUp(url: string, token: string): void {
  void fetch(`${url}/warm`, { method: 'POST', headers: { authorization: `Bearer ${token}` } }).catch(() => null);
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
