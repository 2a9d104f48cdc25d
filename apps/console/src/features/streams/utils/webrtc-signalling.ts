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
