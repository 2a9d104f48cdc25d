import { describe, expect, it } from 'vitest';
import { RTCPeerConnection, Vp8RtpPayload } from 'werift';
import { nodeMetadata, processRunning, pushTestPattern, waitFor } from './harness.js';
import { streamsOf, uriOf, useMediaNode } from './streams.js';
import { publishWhip } from './whip-publisher.js';

/** WebRTC both ways: WHIP pushes from a werift publisher, WHEP playback to werift viewers. */
/** A feed without viewers stops 2 s after the last one left (kept warm that long for the next). */
const world = useMediaNode('media-1', { WEBRTC_WARM_IDLE_MS: '2000' });
const { api, createStream, createOutput, createSmallLadderStream, getStream, outputs, status, transportMetrics } =
  streamsOf(world);
/** Whether the node's VP8 encoder (the WHEP feed's ffmpeg) runs for this stream. */
const feedRunning = (streamId: string) =>
  processRunning((command) => command.includes('libvpx') && command.includes(streamId));

describe('WHIP', () => {
  it('takes a WHIP push from a werift publisher (VP8) to Ingestion with H.264 tracks, its packets and RTT measured', async () => {
    const stream = await createStream({ format: 'WebRTC', access: 'PrivateIngoing' });
    const whip = uriOf(stream);
    expect(whip).toBe(`http://127.0.0.1:${world.node.port}/whip/${encodeURIComponent(stream.name)}`);

    // A werift publisher sends ffmpeg's VP8 test pattern (RTP on a local port); without the token it is refused.
    expect(await publishWhip(whip, null)).toEqual({ refused: 401 });
    const publisher = await publishWhip(whip, stream.accessToken);
    if ('refused' in publisher) throw new Error(`the offer was refused: ${publisher.refused}`);
    const { location } = publisher;
    expect(location).toMatch(/^\/whip\//);
    publisher.feed();
    try {
      await status(stream.id, 'Ingestion', 15_000);
      const tracks = await waitFor(
        async () =>
          (await api<{ codec: string; width: number | null }[]>('GET', `/info/stream/${stream.id}/incoming`)).body,
        (list) => Array.isArray(list) && list.some((t) => t.codec === 'H264' && t.width === 320),
        20_000,
        'H.264 tracks from the WebRTC push',
      );
      expect(tracks.length).toBeGreaterThan(0);
      // The node's metrics reports carry the push's packet rate, its losses and the round-trip time.
      const measured = await transportMetrics(stream.id, 15_000);
      // About 300 kb/s of 1200-byte packets: tens of packets a second.
      expect(Math.max(...measured.sent)).toBeGreaterThan(10);
      expect(measured.lost).not.toHaveLength(0);
      // Milliseconds: over loopback under a second even on a loaded machine.
      for (const value of measured.rtt) expect(value).toBeGreaterThanOrEqual(0);
      expect(Math.min(...measured.rtt)).toBeLessThan(1000);
      expect(measured.retransmitted).toHaveLength(0);
      expect(measured.dropped).toHaveLength(0);
      // The publisher's DELETE is a deliberate end: Idle at once (the grace's end would say "Push ended").
      expect((await fetch(new URL(location, whip), { method: 'DELETE' })).status).toBe(200);
      await status(stream.id, 'Idle', 10_000);
      expect((await getStream(stream.id)).statusMessages[0]?.text).toBe('Push stopped by the publisher');
    } finally {
      await publisher.close();
    }
  });
});

describe('WHEP', () => {
  /** A werift viewer (recvonly video and audio) counting the RTP packets it gets. */
  const viewer = () => {
    const pc = new RTCPeerConnection({ iceAdditionalHostAddresses: ['127.0.0.1'], iceUseIpv6: false });
    pc.addTransceiver('video', { direction: 'recvonly' });
    pc.addTransceiver('audio', { direction: 'recvonly' });
    const got = {
      video: 0,
      audio: 0,
      firstVideoAt: 0,
      lastPacketAt: 0,
      firstVideoIsKeyframe: null as boolean | null,
      /** The picture size of the first VP8 keyframe (its frame header, in the partition's first packet). */
      keyframeSize: null as { width: number; height: number } | null,
      codecs: new Set<string>(),
      /** The RTP timestamps of the first video frames, in the order they came. */
      frameTimestamps: [] as number[],
    };
    pc.onTrack.subscribe((track) => {
      track.onReceiveRtp.subscribe((rtp) => {
        got.lastPacketAt = Date.now();
        if (track.codec) got.codecs.add(track.codec.mimeType.toLowerCase());
        if (track.kind === 'audio') {
          got.audio++;
          return;
        }
        const vp8 = Vp8RtpPayload.deSerialize(rtp.payload);
        if (got.video === 0) {
          got.firstVideoAt = Date.now();
          got.firstVideoIsKeyframe = vp8.payloadHeaderExist && vp8.isKeyframe;
        }
        // A keyframe's header: 3-byte frame tag, start code 9d 01 2a, then 14-bit width and height.
        if (!got.keyframeSize && vp8.payloadHeaderExist && vp8.isKeyframe && vp8.payload.length >= 10)
          got.keyframeSize = {
            width: vp8.payload.readUInt16LE(6) & 0x3fff,
            height: vp8.payload.readUInt16LE(8) & 0x3fff,
          };
        if (got.frameTimestamps.length < 60 && got.frameTimestamps.at(-1) !== rtp.header.timestamp)
          got.frameTimestamps.push(rtp.header.timestamp);
        got.video++;
      });
    });
    const offer = async () => {
      await pc.setLocalDescription(await pc.createOffer());
      return pc.localDescription?.sdp ?? '';
    };
    return { pc, got, offer };
  };
  const post = (url: string, sdp: string, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/sdp', ...headers }, body: sdp });

  it('plays a live stream to werift viewers as VP8/Opus, counts them as sessions, and drops them when cleared', async () => {
    const stream = await createStream({ format: 'RTMP' });
    const output = await createOutput(stream.id, 'WebRTC');
    const whep = output.connection?.signallingUri ?? '';
    expect(whep).toBe(`http://127.0.0.1:${world.node.port}/whep/${encodeURIComponent(output.name)}`);
    const metadata = await nodeMetadata<{ protocols: { WebRTC: { whep: string } } }>(world.node);
    expect(metadata.protocols.WebRTC.whep).toBe(`http://127.0.0.1:${world.node.port}/whep/<output name>`);

    const first = viewer();
    const offer = await first.offer();
    const notLive = await post(whep, offer);
    expect(notLive.status).toBe(404);
    expect(await notLive.text()).toContain('not live');

    const push = pushTestPattern(uriOf(stream), 'flv', 60);
    const second = viewer();
    const third = viewer();
    const fourth = viewer();
    try {
      await status(stream.id, 'Ingestion');
      const postedAt = Date.now();
      const answer = await post(whep, offer);
      expect(answer.status).toBe(201);
      expect(answer.headers.get('content-type')).toBe('application/sdp');
      const location = answer.headers.get('location') ?? '';
      expect(location).toMatch(/^\/whep\/out%2B[^/]+\/[\w-]+$/);
      expect((await fetch(new URL(location, whep), { method: 'PATCH' })).status).toBe(405);
      await first.pc.setRemoteDescription({ type: 'answer', sdp: await answer.text() });
      await waitFor(
        async () => first.got,
        (got) => got.video >= 30 && got.audio >= 10,
        15_000,
        'VP8 and Opus packets at the viewer',
      );
      expect(first.got.codecs).toEqual(new Set(['video/vp8', 'audio/opus']));
      expect(first.got.firstVideoIsKeyframe).toBe(true);
      // The first viewer waits for the feed's ffmpeg (pull, a keyframe of the push, probe) as well.
      const firstMs = first.got.firstVideoAt - postedAt;
      console.info(`WHEP: first viewer's first (key)frame ${firstMs} ms after its POST`);
      expect(firstMs).toBeLessThan(6000);

      // A viewer joining a running feed gets a keyframe within about a second.
      const joinedAt = Date.now();
      const joined = await post(whep, await second.offer());
      expect(joined.status).toBe(201);
      const secondLocation = joined.headers.get('location') ?? '';
      await second.pc.setRemoteDescription({ type: 'answer', sdp: await joined.text() });
      await waitFor(
        async () => second.got,
        (got) => got.video > 0,
        5000,
        "the second viewer's first video",
      );
      expect(second.got.firstVideoIsKeyframe).toBe(true);
      // It starts from the feed's last keyframe, the frames since it caught up at once: their timestamps
      // rise one after the other into the live ones (in the order the decoder needs them).
      await waitFor(
        async () => second.got.frameTimestamps,
        (found) => found.length >= 40,
        5000,
        'frames',
      );
      const steps = second.got.frameTimestamps
        .slice(1)
        .map((ts, index) => (ts - (second.got.frameTimestamps[index] ?? 0)) >>> 0);
      expect(steps.filter((step) => step === 0 || step >= 90_000)).toEqual([]);
      const joinMs = second.got.firstVideoAt - joinedAt;
      console.info(`WHEP: second viewer's first (key)frame ${joinMs} ms after its POST`);
      expect(joinMs).toBeLessThan(2500);

      const sessions = await waitFor(
        () => outputs(stream.id),
        (outputs) => outputs[0]?.sessions.length === 2,
        8000,
        'two WebRTC sessions',
      );
      expect(sessions[0]?.sessions[0]).toMatchObject({ ipAddress: '127.0.0.1' });
      expect((await fetch(new URL(secondLocation, whep), { method: 'DELETE' })).status).toBe(200);
      const one = await waitFor(
        () => outputs(stream.id),
        (outputs) => outputs[0]?.sessions.length === 1 && (outputs[0]?.sessions[0]?.bytes ?? 0) > 20_000,
        8000,
        'one WebRTC session with its bytes',
      );
      expect(one[0]?.sessions).toHaveLength(1);

      expect((await api('DELETE', `/outputs/${output.id}/sessions`)).status).toBe(204);
      await waitFor(
        async () => ({ state: first.pc.connectionState, silentMs: Date.now() - first.got.lastPacketAt }),
        ({ state, silentMs }) => state !== 'connected' || silentMs > 1500,
        8000,
        'the viewer to be disconnected',
      );
      await waitFor(
        () => outputs(stream.id),
        (outputs) => outputs[0]?.sessions.length === 0,
        8000,
        'no sessions after clearing',
      );
      // The last viewer gone, the stream's VP8 encoder stops once it was idle for WEBRTC_WARM_IDLE_MS.
      await waitFor(
        async () => feedRunning(stream.id),
        (running) => !running,
        8000,
        'the WebRTC feed to stop',
      );
      expect((await post(`http://127.0.0.1:${world.node.port}/whep/out%2Bnobody`, offer)).status).toBe(404);

      // A new viewer starts the feed again; the push ending ends its session.
      const again = await post(whep, await third.offer());
      expect(again.status).toBe(201);
      await third.pc.setRemoteDescription({ type: 'answer', sdp: await again.text() });
      await waitFor(
        async () => third.got,
        (got) => got.video > 0,
        8000,
        "the third viewer's first video",
      );
      // A viewer of another output of the stream is disconnected when that output is deleted; the third goes on.
      const other = await createOutput(stream.id, 'WebRTC');
      const joinedOther = await post(other.connection?.signallingUri ?? '', await fourth.offer());
      expect(joinedOther.status).toBe(201);
      await fourth.pc.setRemoteDescription({ type: 'answer', sdp: await joinedOther.text() });
      await waitFor(
        async () => fourth.got,
        (got) => got.video > 0,
        8000,
        "the other output's viewer's first video",
      );
      expect((await api('DELETE', `/outputs/${other.id}`)).status).toBe(204);
      await waitFor(
        async () => ({ state: fourth.pc.connectionState, silentMs: Date.now() - fourth.got.lastPacketAt }),
        ({ state, silentMs }) => state !== 'connected' || silentMs > 1500,
        8000,
        'the viewer of the deleted output to be disconnected',
      );
      expect(Date.now() - third.got.lastPacketAt).toBeLessThan(1000);
      push.stop();
      await waitFor(
        async () => ({ state: third.pc.connectionState, silentMs: Date.now() - third.got.lastPacketAt }),
        ({ state, silentMs }) => state !== 'connected' || silentMs > 1500,
        8000,
        'the viewer to be disconnected when the push ends',
      );
      await waitFor(
        async () => feedRunning(stream.id),
        (running) => !running,
        8000,
        'the WebRTC feed to stop with the push',
      );
    } finally {
      push.stop();
      await push.exited;
      await first.pc.close();
      await second.pc.close();
      await third.pc.close();
      await fourth.pc.close();
    }
  });

  it("plays an adjustable stream's top rendition (the ladder's picture, not the push's)", async () => {
    const stream = await createSmallLadderStream();
    const output = await createOutput(stream.id, 'WebRTC');
    const push = pushTestPattern(uriOf(stream), 'flv', 30);
    const { pc, got, offer } = viewer();
    try {
      await status(stream.id, 'Ingestion');
      // Viewers get the renditions once the transcoder publishes them (the push until then).
      await waitFor(
        async () => (await api<{ width: number | null }[]>('GET', `/info/stream/${stream.id}/outgoing`)).body,
        (tracks) => Array.isArray(tracks) && tracks.some((track) => track.width === 160),
        20_000,
        'the 160x90 rendition',
      );
      const answer = await post(output.connection?.signallingUri ?? '', await offer());
      expect(answer.status).toBe(201);
      await pc.setRemoteDescription({ type: 'answer', sdp: await answer.text() });
      const played = await waitFor(
        async () => got.keyframeSize,
        (size) => size !== null,
        15_000,
        "the viewer's first keyframe",
      );
      // The push is 320x240; the ladder's only (so top) rendition is 160x90.
      expect(played).toEqual({ width: 160, height: 90 });
    } finally {
      push.stop();
      await push.exited;
      await pc.close();
    }
  });

  it("refuses a Private stream's output without its token", async () => {
    const stream = await createStream({ format: 'RTMP', access: 'Private' });
    const output = await createOutput(stream.id, 'WebRTC');
    const whep = output.connection?.signallingUri ?? '';
    const token = output.viewer.accessToken ?? '';
    // 24 random bytes, base64url.
    expect(token).toMatch(/^[\w-]{32}$/);
    const { pc, offer } = viewer();
    const sdp = await offer();
    try {
      const refused = await post(whep, sdp);
      expect(refused.status).toBe(401);
      expect(await refused.text()).toContain('missing playback token');
      expect((await post(whep, sdp, { authorization: 'Bearer wrong' })).status).toBe(401);
      // With its token the offer passes the check (and finds the stream not live).
      const admitted = await post(`${whep}?token=${encodeURIComponent(token)}`, sdp);
      expect(admitted.status).toBe(404);
      expect(await admitted.text()).toContain('not live');
    } finally {
      await pc.close();
    }
  });
});
