import { describe, expect, it } from 'vitest';
import { countingRelay, freePort, pushTestPattern, runTool, sleep, waitFor } from './harness.js';
import { STANDARD_HLS, streamsOf, uriOf, useMediaNode } from './streams.js';

/** Pushes over RTMP and SRT: admission, Ingestion, tracks, playback of the push, exact billing, Idle. */
const world = useMediaNode();
const JPEG = Buffer.from([0xff, 0xd8]);
const {
  api,
  createStream,
  createOutput,
  getStream,
  messages,
  usage,
  expectUploadBilled,
  metric,
  outputs,
  status,
  snapshot,
  transportMetrics,
} = streamsOf(world);

describe('RTMP', () => {
  it('goes live from a push to the shown URL: Ingestion, tracks, HLS and RTMP playback, snapshots, metrics, exact billing, then Idle', async () => {
    const stream = await createStream({ format: 'RTMP', caption: 'pattern' });
    expect(uriOf(stream)).toBe(`rtmp://127.0.0.1:${world.node.rtmpPort}/live/${encodeURIComponent(stream.name)}`);
    const hls = await createOutput(stream.id, 'HLS', STANDARD_HLS);
    const rtmp = await createOutput(stream.id, 'RTMP');
    expect(
      (
        await api('PUT', `/snapshots/stream/${stream.id}/incoming`, {
          format: 'JPEG',
          quality: 'Low',
          interval: 1,
        })
      ).status,
    ).toBe(200);

    // The publisher goes through a counting relay: the reference for the billed bytes.
    const relay = await countingRelay(world.node.rtmpPort);
    const push = pushTestPattern(uriOf(stream).replace(`:${world.node.rtmpPort}/`, `:${relay.port}/`), 'flv', 9);
    const live = await status(stream.id, 'Ingestion');
    expect(live.statusMessages[0]?.text).toMatch(/^Push started over RTMP from 127\.0\.0\.1/);
    const firstByte = relay.firstByteAt();
    expect(firstByte).not.toBeNull();
    expect(Date.now() - (firstByte ?? 0)).toBeLessThan(3000);

    const tracks = await waitFor(
      async () =>
        (
          await api<
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
      () => snapshot(stream.id, 'incoming'),
      (bytes) => bytes !== null,
      8000,
      'a snapshot',
    );
    expect(image?.subarray(0, 2)).toEqual(JPEG);

    const sessions = await waitFor(
      () => outputs(stream.id),
      (outputs) => outputs.some((output) => output.format === 'HLS' && output.sessions.length > 0),
      8000,
      'the HLS viewer session',
    );
    expect(sessions.find((output) => output.format === 'HLS')?.sessions[0]).toMatchObject({ ipAddress: '127.0.0.1' });

    expect(await push.exited).toBe(0);
    await relay.close();
    const idle = await status(stream.id, 'Idle');
    expect(idle.statusMessages[0]?.text).toBe('Push ended');

    await expectUploadBilled(stream.id, relay.bytes());
    expect((await metric(stream.id, 'IncomingBitrate')).some((value) => value > 0)).toBe(true);
  });

  it('disconnects the publisher when the stream is stopped from the console', async () => {
    const stream = await createStream({ format: 'RTMP' });
    const push = pushTestPattern(uriOf(stream), 'flv', 60);
    await status(stream.id, 'Ingestion');
    await sleep(500);
    const stoppedAt = Date.now();
    expect((await api('PUT', `/inputs/${stream.id}`, { state: 'Idle' })).status).toBe(200);
    const code = await Promise.race([push.exited, sleep(8000).then(() => 'still pushing' as const)]);
    push.stop();
    expect(code).not.toBe('still pushing');
    expect(Date.now() - stoppedAt).toBeLessThan(6000);
    await sleep(2500);
    expect((await getStream(stream.id)).status).toBe('Idle');
  });

  it('refuses a wrong name, another node’s stream and a private stream without its token, and bills none of them', async () => {
    const other = await api<{ id: string }>('POST', '/nodes', {
      name: 'media-2',
      connection: { protocol: 'HTTP', hostname: '127.0.0.2', port: await freePort() },
      enabled: true,
      opened: true,
      location: { code: 'EU' },
    });
    // The main node has no region: a stream without a streamer place goes to the EU node first.
    const foreign = await createStream({ format: 'RTMP' });
    expect(foreign.nodeId).toBe(other.body.id);
    await api('PUT', `/nodes/${other.body.id}`, {
      name: 'media-2',
      connection: { protocol: 'HTTP', hostname: '127.0.0.2', port: 1 },
      enabled: false,
      opened: false,
    });
    const privateStream = await createStream({ format: 'RTMP', access: 'Private' });
    expect(privateStream.nodeId).toBe(world.node.id);
    expect(privateStream.accessToken).toMatch(/^\S+$/);
    const base = `rtmp://127.0.0.1:${world.node.rtmpPort}/live/`;
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
    expect((await usage(privateStream.id)).upload).toBe(0);
    expect((await usage(foreign.id)).upload).toBe(0);

    // With its token the same private stream goes live.
    const push = pushTestPattern(`${uriOf(privateStream)}?token=${privateStream.accessToken}`, 'flv', 3);
    await status(privateStream.id, 'Ingestion');
    push.stop();
    await push.exited;
  });
});

describe('SRT', () => {
  it('takes a push with the name in streamid (and the token after it) to Ingestion with its packets and RTT measured, then Idle', async () => {
    const stream = await createStream({ format: 'SRT', access: 'PrivateIngoing' });
    expect(uriOf(stream)).toBe(`srt://127.0.0.1:${world.node.srtPort}?streamid=${encodeURIComponent(stream.name)}`);
    const push = pushTestPattern(`${uriOf(stream)}${encodeURIComponent(`?token=${stream.accessToken}`)}`, 'mpegts', 9);
    const live = await status(stream.id, 'Ingestion');
    expect(live.statusMessages[0]?.text).toBe('Push started over SRT from 127.0.0.1');
    // The session's packets and round-trip time, read from the SRT headers the node forwards.
    const measured = await transportMetrics(stream.id, 8000);
    expect(Math.max(...measured.sent)).toBeGreaterThan(10);
    expect(measured.lost).not.toHaveLength(0);
    expect(measured.retransmitted).not.toHaveLength(0);
    // Milliseconds: over loopback under a second even on a loaded machine.
    for (const value of measured.rtt) expect(value).toBeGreaterThanOrEqual(0);
    expect(Math.min(...measured.rtt)).toBeLessThan(1000);
    expect(measured.dropped).toHaveLength(0);
    await push.exited;
    await status(stream.id, 'Idle', 10_000);
    expect((await usage(stream.id)).upload).toBeGreaterThan(50_000);
  });

  it('takes several SRT pushes at once on the one port, and refuses a wrong name without disturbing them', async () => {
    const streams = [await createStream({ format: 'SRT' }), await createStream({ format: 'SRT' })];
    const pushes = streams.map((stream) => pushTestPattern(uriOf(stream), 'mpegts', 8));
    for (const stream of streams) {
      await status(stream.id, 'Ingestion', 10_000);
    }
    const wrong = pushTestPattern(`srt://127.0.0.1:${world.node.srtPort}?streamid=in%2Bnobody`, 'mpegts', 8);
    expect(await Promise.race([wrong.exited, sleep(6000).then(() => 'still pushing')])).not.toBe('still pushing');
    wrong.stop();
    for (const stream of streams) expect((await getStream(stream.id)).status).toBe('Ingestion');
    for (const push of pushes) expect(await push.exited).toBe(0);
  });
});
