import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PENDING_OFFERS_PER_ADDRESS, PENDING_OFFERS_PER_NAME } from '../src/front-ends/webrtc/pending-offers.js';
import { nodeMetadata, offerSdp, postOffer as post, waitFor } from './harness.js';
import { streamsOf, uriOf, useMediaNode } from './streams.js';

/**
 * WHIP and WHEP offers that never connect (issue 41, defect 5): bounded per client address and per name (429 with
 * Retry-After), and a session that never connected gives back everything it held (sockets, timers).
 */
const world = useMediaNode('media-1');
const { createStream, getStream } = streamsOf(world);

/** A Public WebRTC stream's WHIP URL, once the stream is placed on the node. */
async function whipStream(): Promise<string> {
  const stream = await createStream({ format: 'WebRTC' });
  return waitFor(async () => uriOf(await getStream(stream.id)), Boolean, 8000, 'the stream placed');
}

type WebRtcFigures = { whip: { sessions: number; pendingOffers: number } };
const fds = () => readdirSync(`/proc/${world.node.process.pid}/fd`).length;

describe('WHIP/WHEP offers that never connect (defect 5)', () => {
  it('are bounded per address (429, Retry-After) and give back what they held when they end', async () => {
    const whip = await whipStream();
    const sdp = await offerSdp('sendonly');
    // A first offer and its end: whatever the node opens once (and keeps) is open before the count starts.
    const warmup = await post(whip, sdp);
    expect(warmup.status).toBe(201);
    await fetch(new URL(warmup.location ?? '', whip), { method: 'DELETE' });
    const before = fds();

    const answers = [];
    for (let i = 0; i <= PENDING_OFFERS_PER_ADDRESS; i++) answers.push(await post(whip, sdp));
    expect(answers.slice(0, -1).map((answer) => answer.status)).toEqual(Array(PENDING_OFFERS_PER_ADDRESS).fill(201));
    expect(answers.at(-1)).toMatchObject({ status: 429, retryAfter: '5' });
    // Another address is another client.
    const other = await post(whip, sdp, '127.0.0.2');
    expect(other.status).toBe(201);
    const figures = await nodeMetadata<{ webrtc: WebRtcFigures }>(world.node);
    expect(figures.webrtc.whip).toEqual({
      sessions: PENDING_OFFERS_PER_ADDRESS + 1,
      pendingOffers: PENDING_OFFERS_PER_ADDRESS + 1,
    });
    expect(fds()).toBeGreaterThan(before);

    // Every session ended (their Locations): nothing of them is left, and the address may offer again.
    for (const { location } of [...answers.slice(0, -1), other])
      expect((await fetch(new URL(location ?? '', whip), { method: 'DELETE' })).status).toBe(200);
    const after = await waitFor(
      () => nodeMetadata<{ webrtc: WebRtcFigures }>(world.node),
      (found) => found.webrtc.whip.sessions === 0,
      5000,
      'the sessions gone',
    );
    expect(after.webrtc.whip.pendingOffers).toBe(0);
    await waitFor(
      async () => fds(),
      (count) => count <= before + 1,
      5000,
      'the descriptors given back',
    );
    const again = await post(whip, sdp);
    expect(again.status).toBe(201);
    await fetch(new URL(again.location ?? '', whip), { method: 'DELETE' });
  });

  it('are bounded per stream or output name, whatever the addresses', async () => {
    const whip = await whipStream();
    const sdp = await offerSdp('sendonly');
    const answers = [];
    for (let i = 0; i <= PENDING_OFFERS_PER_NAME; i++)
      answers.push(await post(whip, sdp, `127.0.1.${1 + Math.floor(i / PENDING_OFFERS_PER_ADDRESS)}`));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(PENDING_OFFERS_PER_NAME);
    expect(answers.at(-1)).toMatchObject({ status: 429, retryAfter: '5' });
    // Another stream is not held back by this one's.
    expect((await post(await whipStream(), sdp, '127.0.2.1')).status).toBe(201);
    for (const { location } of answers) if (location) await fetch(new URL(location, whip), { method: 'DELETE' });
  });
});
