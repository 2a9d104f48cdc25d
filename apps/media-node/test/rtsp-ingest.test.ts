import { describe, expect, it } from 'vitest';
import { countingRelay, ffmpeg, pushTestPattern, runTool, waitFor } from './harness.js';
import { STANDARD_HLS, streamsOf, uriOf, useMediaNode } from './streams.js';

/** RTSP pushes (ANNOUNCE/RECORD, TCP interleaved) as ffmpeg sends them: admission, Ingestion, playback, billing. */
const world = useMediaNode('rtsp-ingest');
const { createStream, createOutput, getStream, status, usage, api, expectUploadBilled } = streamsOf(world);

describe('RTSP', () => {
  it('takes a private push at the shown URL with the token as query: Ingestion, HLS, exact billing, a second push refused, then Idle', async () => {
    const stream = await createStream({ format: 'RTSP', access: 'PrivateIngoing' });
    const shown = uriOf(stream);
    expect(shown).toBe(`rtsp://127.0.0.1:${world.node.rtspPort}/live/${encodeURIComponent(stream.name)}`);
    const hls = await createOutput(stream.id, 'HLS', STANDARD_HLS);
    const withToken = `${shown}?token=${encodeURIComponent(stream.accessToken ?? '')}`;
    // Through a counting relay: the reference for the billed bytes.
    const relay = await countingRelay(world.node.rtspPort);
    const push = pushTestPattern(withToken.replace(`:${world.node.rtspPort}/`, `:${relay.port}/`), 'rtsp', 8);
    const live = await status(stream.id, 'Ingestion');
    expect(live.statusMessages[0]?.text).toBe('Push started over RTSP from 127.0.0.1');

    const second = pushTestPattern(withToken, 'rtsp', 3);
    expect(await second.exited).not.toBe(0);
    expect(second.stderr()).toContain('403 Forbidden');

    const tracks = await waitFor(
      async () => (await api<{ type: string; codec: string }[]>('GET', `/info/stream/${stream.id}/incoming`)).body,
      (list) => Array.isArray(list) && list.length === 2,
      8000,
      'track info',
    );
    expect(tracks).toEqual([
      expect.objectContaining({ type: 'Video', codec: 'H264', width: 320 }),
      expect.objectContaining({ type: 'Audio', codec: 'AAC' }),
    ]);
    const probe = await runTool(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'stream=codec_name,width', '-of', 'csv=p=0', hls.connection?.uri ?? ''],
      15_000,
    );
    expect(probe.stdout, probe.stderr).toContain('h264,320');
    expect(await push.exited, push.stderr()).toBe(0);
    await relay.close();
    await status(stream.id, 'Idle', 10_000);
    expect((await getStream(stream.id)).statusMessages.map((message) => message.text)).toContain(
      'Push from 127.0.0.1 refused: the stream is already being pushed',
    );
    await expectUploadBilled(stream.id, relay.bytes());
  });

  it('refuses a push over UDP, without its token, with a wrong one, or to an unknown name, with an RTSP answer, and bills none of them', async () => {
    const stream = await createStream({ format: 'RTSP', access: 'PrivateIngoing' });
    const udp = ffmpeg([
      ...['-re', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=15', '-t', '3', '-c:v', 'libx264'],
      ...['-rtsp_transport', 'udp', '-f', 'rtsp', `${uriOf(stream)}?token=${stream.accessToken ?? ''}`],
    ]);
    expect(await udp.exited).not.toBe(0);
    expect(udp.stderr()).toContain('461 Unsupported Transport');
    const refusals = [
      { url: uriOf(stream), answer: '403 Forbidden' },
      { url: `${uriOf(stream)}?token=wrong`, answer: '403 Forbidden' },
      { url: `rtsp://127.0.0.1:${world.node.rtspPort}/live/in%2Bnobody`, answer: '404 Not Found' },
    ];
    for (const { url, answer } of refusals) {
      const push = pushTestPattern(url, 'rtsp', 3);
      expect(await push.exited).not.toBe(0);
      expect(push.stderr()).toContain(answer);
    }
    const texts = await waitFor(
      async () => (await getStream(stream.id)).statusMessages.map((message) => message.text),
      (messages) => messages.some((text) => text.includes('wrong access token')),
      8000,
      'the refusal messages',
    );
    expect(texts).toContain('Push from 127.0.0.1 refused: missing access token');
    expect(texts).toContain(
      'Push from 127.0.0.1 refused: RTSP over UDP is not taken: set the encoder to RTSP over TCP',
    );
    expect((await getStream(stream.id)).status).toBe('Idle');
    expect((await usage(stream.id)).upload).toBe(0);
  });
});
