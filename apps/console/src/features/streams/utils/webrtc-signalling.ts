/** How long the browser gathers ICE candidates before the offer goes (loopback and LAN candidates come at once). */
const GATHER_MS = 1000;

/** The node refused a WHIP or WHEP offer; the message is its reason. */
export class SignallingError extends Error {}

/** Resolves when ICE gathering completes, or after GATHER_MS (what was gathered by then goes in the offer). */
export function gathered(pc: RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      pc.removeEventListener('icegatheringstatechange', check);
      resolve();
    };
    const check = () => {
      if (pc.iceGatheringState === 'complete') done();
    };
    const timer = setTimeout(done, GATHER_MS);
    pc.addEventListener('icegatheringstatechange', check);
  });
}

/** The node's refusal as a sentence (its JSON `message`, else the status). */
export async function refusal(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const message = (JSON.parse(text) as { message?: unknown }).message;
    if (typeof message === 'string' && message) return message;
  } catch {
    // not JSON
  }
  return `the node answered ${response.status}`;
}

/**
 * Non-trickle WHIP/WHEP signalling: the offer (with what ICE gathered) POSTed to `url`, the Bearer token
 * when there is one, the answer applied. Resolves with the session's URL (the Location, for DELETE).
 */
export async function offerTo(pc: RTCPeerConnection, url: string, token: string | null): Promise<string | null> {
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/sdp', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: pc.localDescription?.sdp ?? '',
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

/** Ends a WHIP/WHEP session (DELETE on its Location); the node ends it on its own when this cannot reach it. */
export function endSession(resource: string, token: string | null): Promise<unknown> {
  return fetch(resource, {
    method: 'DELETE',
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
  }).catch(() => null);
}
