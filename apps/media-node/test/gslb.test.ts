import { createSocket } from 'node:dgram';
import type { IngressEndpoint } from '@streamcloud/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { MediaStreamTrack, RTCPeerConnection, RtpPacket } from 'werift';
import { freePort, pushTestPattern, pushTestPatternVp8, type RunningNode, startMediaNode } from './harness.js';
import { streamsOf, useMediaNode } from './streams.js';

/** GSLB that routes, with two real nodes on loopback: a push to a stream's `as+<uuid>` name on any node. */
const world = useMediaNode('gslb-a');
const { api, createStream, getStream, status } = streamsOf(world);
let nodeB: RunningNode | undefined;
afterAll(async () => {
  await nodeB?.stop();
});

const gslbNameOf = async (streamId: string) =>
  (await api<IngressEndpoint>('GET', `/gslb/input/stream/${streamId}`)).body.name;

describe('GSLB', () => {
  it('takes a push to the GSLB name on node B for a stream assigned to node A: the stream moves to B and goes live there; a second push is refused', async () => {
    // Created while node A is the only node: placement puts it there.
    const stream = await createStream({ format: 'RTMP', gslb: true });
    expect(stream.servingNode?.id).toBe(world.node.id);
    const name = await gslbNameOf(stream.id);
    nodeB = await startMediaNode(world.plane, 'gslb-b');
    const urlOn = (node: RunningNode) => `rtmp://127.0.0.1:${node.rtmpPort}/live/${encodeURIComponent(name)}`;

    const push = pushTestPattern(urlOn(nodeB), 'flv', 6);
    const live = await status(stream.id, 'Ingestion', 15_000);
    expect(live.servingNode?.id).toBe(nodeB.id);
    expect(live.statusMessages.map((message) => message.text)).toContain(
      'Moved to node gslb-b: a push to its GSLB name arrived there',
    );
    // While it is live, a push to the GSLB name on the other node is refused and the stream stays on B.
    const second = pushTestPattern(urlOn(world.node), 'flv', 2);
    expect(await second.exited).not.toBe(0);
    expect((await getStream(stream.id)).servingNode?.id).toBe(nodeB.id);
    expect(await push.exited, push.stderr()).toBe(0);
    await status(stream.id, 'Idle', 10_000);
  });

  it("answers WHIP at the GSLB URL with a 307 to the chosen node's WHIP URL, where the push goes live", async () => {
    const stream = await createStream({ format: 'WebRTC', gslb: true });
    const name = await gslbNameOf(stream.id);
    const unknown = await fetch(`${world.plane.url}/whip/as%2B${'0'.repeat(8)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/sdp' },
      body: 'v=0',
      redirect: 'manual',
    });
    expect(unknown.status).toBe(404);

    const rtpPort = await freePort();
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(rtpPort, '127.0.0.1', resolve));
    const track = new MediaStreamTrack({ kind: 'video' });
    socket.on('message', (data) => track.writeRtp(RtpPacket.deSerialize(data)));
    const publisher = new RTCPeerConnection({ iceAdditionalHostAddresses: ['127.0.0.1'], iceUseIpv6: false });
    publisher.addTransceiver(track, { direction: 'sendonly' });
    await publisher.setLocalDescription(await publisher.createOffer());
    const offer = {
      method: 'POST',
      headers: { 'content-type': 'application/sdp' },
      body: publisher.localDescription?.sdp,
    };

    // The address the API (and the console's GSLB dialog) shows: the control plane's own (GSLB_URL unset).
    const shown = (await api<IngressEndpoint>('GET', `/gslb/input/stream/${stream.id}`)).body.connection.uri;
    expect(shown).toBe(`http://localhost:${new URL(world.plane.url).port}/whip/${encodeURIComponent(name)}`);
    const redirected = await fetch(shown, {
      ...offer,
      redirect: 'manual',
    });
    expect(redirected.status).toBe(307);
    const location = redirected.headers.get('location') ?? '';
    const target = [world.node, nodeB].find(
      (node) => node && location === `http://127.0.0.1:${node.port}/whip/${encodeURIComponent(name)}`,
    );
    expect(target, location).toBeDefined();
    const answer = await fetch(location, offer);
    expect(answer.status).toBe(201);
    await publisher.setRemoteDescription({ type: 'answer', sdp: await answer.text() });
    const encoder = pushTestPatternVp8(rtpPort);
    try {
      const live = await status(stream.id, 'Ingestion', 15_000);
      expect(live.servingNode?.id).toBe(target?.id);
    } finally {
      encoder.stop();
      await publisher.close();
      socket.close();
    }
  });
});
