import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { readdirSync, readFileSync } from 'node:fs';
import type { StreamInput, StreamOutput } from '@streamcloud/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaStreamTrack, RTCPeerConnection, RtpPacket, Vp8RtpPayload } from 'werift';
import {
  type ControlPlane,
  countingRelay,
  freePort,
  pushTestPattern,
  type RunningNode,
  runTool,
  sleep,
  startControlPlane,
  startMediaNode,
  waitFor,
} from './harness.js';

/**
 * The media node end to end on loopback: the real control plane, real media nodes, ffmpeg as the
 * streamer and the player. One control plane and one main node serve every test (they run in order).
 */
let plane: ControlPlane;
let node: RunningNode;

const createStream = async (body: Record<string, unknown>): Promise<StreamInput> => {
  const created = await plane.api<StreamInput>('POST', '/inputs', { output: { passthrough: true }, ...body });
  expect(created.status).toBe(201);
  return created.body;
};
const getStream = async (id: string) => (await plane.api<StreamInput>('GET', `/inputs/${id}`)).body;
const createOutput = async (streamId: string, format: string): Promise<StreamOutput> => {
  const created = await plane.api<StreamOutput>('POST', '/outputs', { streamId, format });
  expect(created.status).toBe(201);
  return created.body;
};
const uriOf = (stream: StreamInput) => {
  const connection = stream.connection as { uri?: string; signallingUri?: string } | null;
  return connection?.uri ?? connection?.signallingUri ?? '';
};
const window = () => {
  const from = new Date(Date.now() - 3600_000).toISOString();
  const to = new Date(Date.now() + 3600_000).toISOString();
  return `from/${from}/to/${to}`;
};
type Usage = { streams: { incoming: { upload: number }[]; outgoing: { download: number }[] }[] };
const uploaded = async (streamId: string) => {
  const usage = (await plane.api<Usage>('GET', `/statistics/stream/${streamId}/${window()}`)).body;
  return (usage.streams ?? []).flatMap((stream) => stream.incoming).reduce((sum, session) => sum + session.upload, 0);
};
const messages = async (id: string) => (await getStream(id)).statusMessages.map((message) => message.text);

beforeAll(async () => {
  plane = await startControlPlane({ NODE_SILENCE_SECONDS: '4' });
  node = await startMediaNode(plane, 'media-1');
}, 150_000);

afterAll(async () => {
  await node?.stop();
  await plane?.stop();
});

describe('RTMP', () => {
  it('goes live from a push to the shown URL: Ingestion, tracks, HLS and RTMP playback, snapshots, metrics, exact billing, then Idle', async () => {
    const stream = await createStream({ format: 'RTMP', caption: 'pattern' });
    expect(uriOf(stream)).toBe(`rtmp://127.0.0.1:${node.rtmpPort}/live/${encodeURIComponent(stream.name)}`);
    const hls = await createOutput(stream.id, 'HLS');
    const rtmp = await createOutput(stream.id, 'RTMP');
    expect(
      (
        await plane.api('PUT', `/snapshots/stream/${stream.id}/incoming`, {
          format: 'JPEG',
          quality: 'Low',
          interval: 1,
        })
      ).status,
    ).toBe(200);

    // The publisher goes through a counting relay: the reference for the billed bytes.
    const relay = await countingRelay(node.rtmpPort);
    const push = pushTestPattern(uriOf(stream).replace(`:${node.rtmpPort}/`, `:${relay.port}/`), 'flv', 9);
    const live = await waitFor(
      () => getStream(stream.id),
      (s) => s.status === 'Ingestion',
      8000,
      'Ingestion',
    );
    expect(live.statusMessages[0]?.text).toMatch(/^Push started over RTMP from 127\.0\.0\.1/);
    const firstByte = relay.firstByteAt();
    expect(firstByte).not.toBeNull();
    expect(Date.now() - (firstByte ?? 0)).toBeLessThan(3000);

    const tracks = await waitFor(
      async () =>
        (
          await plane.api<
            { type: string; codec: string; width: number | null; channels: number | null; bps: number | null }[]
          >('GET', `/info/stream/${stream.id}/incoming`)
        ).body,
      (list) => Array.isArray(list) && list.length === 2,
      8000,
      'track info',
    );
    expect(tracks).toEqual([
      expect.objectContaining({ type: 'Video', codec: 'H264', width: 320, height: 240, rate: 15 }),
      expect.objectContaining({ type: 'Audio', codec: 'AAC', channels: 1, rate: 44100 }),
    ]);
    expect(tracks[0]?.bps).toBeGreaterThan(10_000);

    const probe = await runTool(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'stream=codec_name,width', '-of', 'csv=p=0', hls.connection?.uri ?? ''],
      15_000,
    );
    expect(probe.code).toBe(0);
    expect(probe.stdout).toContain('h264,320');
    const pull = await runTool(
      'ffmpeg',
      ['-v', 'error', '-i', rtmp.connection?.uri ?? '', '-t', '1', '-f', 'null', '-'],
      15_000,
    );
    expect(pull.code).toBe(0);

    const image = await waitFor(
      () =>
        fetch(`${plane.url}/api/v1/snapshots/stream/${stream.id}/incoming/image`, {
          headers: { authorization: `Bearer ${plane.token}` },
        }),
      (response) => response.status === 200,
      8000,
      'a snapshot',
    );
    const bytes = Buffer.from(await image.arrayBuffer());
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));

    const sessions = await waitFor(
      async () => (await plane.api<StreamOutput[]>('GET', `/outputs?streamId=${stream.id}`)).body,
      (outputs) => outputs.some((output) => output.format === 'HLS' && output.sessions.length > 0),
      8000,
      'the HLS viewer session',
    );
    expect(sessions.find((output) => output.format === 'HLS')?.sessions[0]).toMatchObject({ ipAddress: '127.0.0.1' });

    expect(await push.exited).toBe(0);
    await relay.close();
    const idle = await waitFor(
      () => getStream(stream.id),
      (s) => s.status === 'Idle',
      8000,
      'Idle after the push',
    );
    expect(idle.statusMessages[0]?.text).toBe('Push ended');

    const sent = relay.bytes();
    const billed = await waitFor(
      () => uploaded(stream.id),
      (value) => value >= sent * 0.99,
      8000,
      'the billed bytes',
    );
    expect(Math.abs(billed - sent) / sent).toBeLessThan(0.01);
    const metrics = (
      await plane.api<{ result: { values: [number, number][] }[] }>(
        'GET',
        `/statistics/stream/${stream.id}/${window()}?metrics=IncomingBitrate`,
      )
    ).body;
    expect(metrics.result.flatMap((series) => series.values).some(([, value]) => Number(value) > 0)).toBe(true);
  });

  it('disconnects the publisher when the stream is stopped from the console', async () => {
    const stream = await createStream({ format: 'RTMP' });
    const push = pushTestPattern(uriOf(stream), 'flv', 60);
    await waitFor(
      () => getStream(stream.id),
      (s) => s.status === 'Ingestion',
      8000,
      'Ingestion',
    );
    await sleep(500);
    const stoppedAt = Date.now();
    expect((await plane.api('PUT', `/inputs/${stream.id}`, { state: 'Idle' })).status).toBe(200);
    const code = await Promise.race([push.exited, sleep(8000).then(() => 'still pushing' as const)]);
    push.stop();
    expect(code).not.toBe('still pushing');
    expect(Date.now() - stoppedAt).toBeLessThan(6000);
    await sleep(2500);
    expect((await getStream(stream.id)).status).toBe('Idle');
  });

  it('refuses a wrong name, another node’s stream and a private stream without its token, and bills none of them', async () => {
    const other = await plane.api<{ id: string }>('POST', '/nodes', {
      name: 'media-2',
      connection: { protocol: 'HTTP', hostname: '127.0.0.2', port: await freePort() },
      enabled: true,
      opened: true,
      location: { code: 'EU' },
    });
    // The main node has no region: a stream without a streamer place goes to the EU node first.
    const foreign = await createStream({ format: 'RTMP' });
    expect(foreign.nodeId).toBe(other.body.id);
    await plane.api('PUT', `/nodes/${other.body.id}`, {
      name: 'media-2',
      connection: { protocol: 'HTTP', hostname: '127.0.0.2', port: 1 },
      enabled: false,
      opened: false,
    });
    const privateStream = await createStream({ format: 'RTMP', access: 'Private' });
    expect(privateStream.nodeId).toBe(node.id);
    expect(privateStream.accessToken).toBeTruthy();
    const base = `rtmp://127.0.0.1:${node.rtmpPort}/live/`;
    const attempts = [
      `${base}pt%2B00000000-0000-4000-8000-000000000000`,
      `${base}${encodeURIComponent(foreign.name)}`,
      uriOf(privateStream),
      `${uriOf(privateStream)}?token=wrong-token`,
    ];
    for (const url of attempts) {
      const push = pushTestPattern(url, 'flv', 20);
      const code = await Promise.race([push.exited, sleep(8000).then(() => 'still pushing' as const)]);
      push.stop();
      expect(code, url).not.toBe(0);
      expect(code, url).not.toBe('still pushing');
    }
    await waitFor(
      () => messages(privateStream.id),
      (texts) =>
        texts.includes('Push from 127.0.0.1 refused: missing access token') &&
        texts.includes('Push from 127.0.0.1 refused: wrong access token'),
      5000,
      'the refusals among the status messages',
    );
    expect((await getStream(privateStream.id)).status).toBe('Idle');
    await sleep(1000);
    expect(await uploaded(privateStream.id)).toBe(0);
    expect(await uploaded(foreign.id)).toBe(0);

    // With its token the same private stream goes live.
    const push = pushTestPattern(`${uriOf(privateStream)}?token=${privateStream.accessToken}`, 'flv', 3);
    await waitFor(
      () => getStream(privateStream.id),
      (s) => s.status === 'Ingestion',
      8000,
      'Ingestion with the token',
    );
    push.stop();
    await push.exited;
  });

  it('disconnects the viewers of an output whose sessions are cleared', async () => {
    const stream = await createStream({ format: 'RTMP' });
    const output = await createOutput(stream.id, 'HLS');
    const push = pushTestPattern(uriOf(stream), 'flv', 30);
    await waitFor(
      () => getStream(stream.id),
      (s) => s.status === 'Ingestion',
      8000,
      'Ingestion',
    );
    const first = await waitFor(
      () => fetch(output.connection?.uri ?? '', { redirect: 'manual' }),
      (r) => r.status === 302,
      8000,
      'the HLS redirect',
    );
    const playlist = new URL(first.headers.get('location') ?? '', output.connection?.uri ?? '').toString();
    await waitFor(
      () => fetch(playlist),
      (response) => response.status === 200,
      8000,
      'the playlist',
    );
    await waitFor(
      async () => (await plane.api<StreamOutput[]>('GET', `/outputs?streamId=${stream.id}`)).body,
      (outputs) => (outputs[0]?.sessions.length ?? 0) === 1,
      8000,
      'the session in the control plane',
    );
    expect((await plane.api('DELETE', `/outputs/${output.id}/sessions`)).status).toBe(204);
    await waitFor(
      () => fetch(playlist),
      (response) => response.status === 410,
      8000,
      'the session to be ended',
    );
    push.stop();
    await push.exited;
  });
});

describe('SRT', () => {
  it('takes a push with the name in streamid (and the token after it) to Ingestion, then Idle', async () => {
    const stream = await createStream({ format: 'SRT', access: 'PrivateIngoing' });
    expect(uriOf(stream)).toBe(`srt://127.0.0.1:${node.srtPort}?streamid=${encodeURIComponent(stream.name)}`);
    const push = pushTestPattern(`${uriOf(stream)}${encodeURIComponent(`?token=${stream.accessToken}`)}`, 'mpegts', 5);
    const live = await waitFor(
      () => getStream(stream.id),
      (s) => s.status === 'Ingestion',
      8000,
      'Ingestion',
    );
    expect(live.statusMessages[0]?.text).toBe('Push started over SRT from 127.0.0.1');
    await push.exited;
    await waitFor(
      () => getStream(stream.id),
      (s) => s.status === 'Idle',
      10_000,
      'Idle after the push',
    );
    expect(await uploaded(stream.id)).toBeGreaterThan(50_000);
  });

  it('takes several SRT pushes at once on the one port, and refuses a wrong name without disturbing them', async () => {
    const streams = [await createStream({ format: 'SRT' }), await createStream({ format: 'SRT' })];
    const pushes = streams.map((stream) => pushTestPattern(uriOf(stream), 'mpegts', 8));
    for (const stream of streams) {
      await waitFor(
        () => getStream(stream.id),
        (s) => s.status === 'Ingestion',
        10_000,
        'Ingestion of every SRT push',
      );
    }
    const wrong = pushTestPattern(`srt://127.0.0.1:${node.srtPort}?streamid=in%2Bnobody`, 'mpegts', 8);
    expect(await Promise.race([wrong.exited, sleep(6000).then(() => 'still pushing')])).not.toBe('still pushing');
    wrong.stop();
    for (const stream of streams) expect((await getStream(stream.id)).status).toBe('Ingestion');
    for (const push of pushes) expect(await push.exited).toBe(0);
  });
});

describe('WebRTC', () => {
  it('takes a WHIP push from a werift publisher (VP8) to Ingestion with H.264 tracks', async () => {
    const stream = await createStream({ format: 'WebRTC', access: 'PrivateIngoing' });
    const whip = uriOf(stream);
    expect(whip).toBe(`http://127.0.0.1:${node.port}/whip/${encodeURIComponent(stream.name)}`);

    // ffmpeg encodes VP8 into RTP on a local port; the werift publisher sends those packets.
    const rtpPort = await freePort();
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(rtpPort, '127.0.0.1', resolve));
    const track = new MediaStreamTrack({ kind: 'video' });
    socket.on('message', (data) => track.writeRtp(RtpPacket.deSerialize(data)));
    const pc = new RTCPeerConnection({ iceAdditionalHostAddresses: ['127.0.0.1'], iceUseIpv6: false });
    pc.addTransceiver(track, { direction: 'sendonly' });
    await pc.setLocalDescription(await pc.createOffer());

    const refused = await fetch(whip, {
      method: 'POST',
      headers: { 'content-type': 'application/sdp' },
      body: pc.localDescription?.sdp,
    });
    expect(refused.status).toBe(401);
    const answer = await fetch(whip, {
      method: 'POST',
      headers: { 'content-type': 'application/sdp', authorization: `Bearer ${stream.accessToken}` },
      body: pc.localDescription?.sdp,
    });
    expect(answer.status).toBe(201);
    const location = answer.headers.get('location') ?? '';
    expect(location).toMatch(/^\/whip\//);
    await pc.setRemoteDescription({ type: 'answer', sdp: await answer.text() });

    const encoder = pushTestPatternVp8(rtpPort);
    try {
      await waitFor(
        () => getStream(stream.id),
        (s) => s.status === 'Ingestion',
        15_000,
        'Ingestion',
      );
      const tracks = await waitFor(
        async () =>
          (await plane.api<{ codec: string; width: number | null }[]>('GET', `/info/stream/${stream.id}/incoming`))
            .body,
        (list) => Array.isArray(list) && list.some((t) => t.codec === 'H264' && t.width === 320),
        20_000,
        'H.264 tracks from the WebRTC push',
      );
      expect(tracks.length).toBeGreaterThan(0);
      expect((await fetch(new URL(location, whip), { method: 'DELETE' })).status).toBe(200);
      await waitFor(
        () => getStream(stream.id),
        (s) => s.status === 'Idle',
        10_000,
        'Idle after DELETE',
      );
    } finally {
      encoder.stop();
      await pc.close();
      socket.close();
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
      codecs: new Set<string>(),
    };
    pc.onTrack.subscribe((track) => {
      track.onReceiveRtp.subscribe((rtp) => {
        got.lastPacketAt = Date.now();
        if (track.codec) got.codecs.add(track.codec.mimeType.toLowerCase());
        if (track.kind === 'audio') {
          got.audio++;
          return;
        }
        if (got.video === 0) {
          got.firstVideoAt = Date.now();
          const vp8 = Vp8RtpPayload.deSerialize(rtp.payload);
          got.firstVideoIsKeyframe = vp8.payloadHeaderExist && vp8.isKeyframe;
        }
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
    expect(whep).toBe(`http://127.0.0.1:${node.port}/whep/${encodeURIComponent(output.name)}`);
    const metadata = (await (await fetch(`http://127.0.0.1:${node.port}/metadata`)).json()) as {
      protocols: { WebRTC: { whep: string } };
    };
    expect(metadata.protocols.WebRTC.whep).toBe(`http://127.0.0.1:${node.port}/whep/<output name>`);

    const first = viewer();
    const offer = await first.offer();
    const notLive = await post(whep, offer);
    expect(notLive.status).toBe(404);
    expect(await notLive.text()).toContain('not live');

    const push = pushTestPattern(uriOf(stream), 'flv', 60);
    const second = viewer();
    const third = viewer();
    try {
      await waitFor(
        () => getStream(stream.id),
        (s) => s.status === 'Ingestion',
        8000,
        'Ingestion',
      );
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
      const joinMs = second.got.firstVideoAt - joinedAt;
      console.info(`WHEP: second viewer's first (key)frame ${joinMs} ms after its POST`);
      expect(joinMs).toBeLessThan(2500);

      const sessions = await waitFor(
        async () => (await plane.api<StreamOutput[]>('GET', `/outputs?streamId=${stream.id}`)).body,
        (outputs) => outputs[0]?.sessions.length === 2,
        8000,
        'two WebRTC sessions',
      );
      expect(sessions[0]?.sessions[0]).toMatchObject({ ipAddress: '127.0.0.1' });
      expect((await fetch(new URL(secondLocation, whep), { method: 'DELETE' })).status).toBe(200);
      const one = await waitFor(
        async () => (await plane.api<StreamOutput[]>('GET', `/outputs?streamId=${stream.id}`)).body,
        (outputs) => outputs[0]?.sessions.length === 1 && (outputs[0]?.sessions[0]?.bytes ?? 0) > 20_000,
        8000,
        'one WebRTC session with its bytes',
      );
      expect(one[0]?.sessions).toHaveLength(1);

      expect((await plane.api('DELETE', `/outputs/${output.id}/sessions`)).status).toBe(204);
      await waitFor(
        async () => ({ state: first.pc.connectionState, silentMs: Date.now() - first.got.lastPacketAt }),
        ({ state, silentMs }) => state !== 'connected' || silentMs > 1500,
        8000,
        'the viewer to be disconnected',
      );
      await waitFor(
        async () => (await plane.api<StreamOutput[]>('GET', `/outputs?streamId=${stream.id}`)).body,
        (outputs) => outputs[0]?.sessions.length === 0,
        8000,
        'no sessions after clearing',
      );
      // The last viewer gone, the stream's VP8 encoder stops.
      await waitFor(
        async () => feedRunning(stream.id),
        (running) => !running,
        8000,
        'the WebRTC feed to stop',
      );
      expect((await post(`http://127.0.0.1:${node.port}/whep/out%2Bnobody`, offer)).status).toBe(404);

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

describe('a media node that dies', () => {
  it('takes its streams out of Ingestion within the silence bound while the control plane goes on', async () => {
    const doomed = await startMediaNode(plane, 'media-doomed');
    // Only the doomed node takes new streams now.
    await plane.api('PUT', `/nodes/${node.id}`, {
      name: 'media-1',
      connection: { protocol: 'HTTP', hostname: '127.0.0.1', port: node.port },
      enabled: false,
      opened: false,
    });
    const stream = await createStream({ format: 'RTMP' });
    expect(stream.nodeId).toBe(doomed.id);
    const push = pushTestPattern(uriOf(stream), 'flv', 60);
    await waitFor(
      () => getStream(stream.id),
      (s) => s.status === 'Ingestion',
      8000,
      'Ingestion',
    );
    const killedAt = Date.now();
    await doomed.kill();
    const after = await waitFor(
      () => getStream(stream.id),
      (s) => s.status !== 'Ingestion',
      15_000,
      'leaving Ingestion',
    );
    expect(after.status).toBe('Error');
    expect(after.statusMessages[0]?.text).toMatch(/^Node media-doomed stopped reporting for 4 s/);
    expect(Date.now() - killedAt).toBeLessThan(12_000);
    push.stop();
    expect((await fetch(`${plane.url}/readyz`)).status).toBe(200);
    expect((await plane.api('GET', '/inputs')).status).toBe(200);
  });
});

/** Whether the node's VP8 encoder (the WHEP feed's ffmpeg) runs for this stream. */
function feedRunning(streamId: string): boolean {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (command.includes('libvpx') && command.includes(streamId)) return true;
    } catch {
      // ended meanwhile
    }
  }
  return false;
}

/** VP8 RTP of the test pattern to a local UDP port (what a browser would send over WebRTC). */
function pushTestPatternVp8(port: number): { stop(): void } {
  const child = spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      '-re',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=15',
      '-t',
      '60',
      '-c:v',
      'libvpx',
      '-deadline',
      'realtime',
      '-cpu-used',
      '8',
      '-b:v',
      '300k',
      '-g',
      '15',
      '-f',
      'rtp',
      '-payload_type',
      '96',
      `rtp://127.0.0.1:${port}?pkt_size=1200`,
    ],
    { stdio: 'ignore' },
  );
  return { stop: () => child.kill('SIGKILL') };
}
