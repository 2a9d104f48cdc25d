import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StreamInput } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import { probeMedia, trackInfos } from '../src/probe.js';
import { pixelAt, processIds, pushTestPattern, runTool, waitFor } from './harness.js';
import { STANDARD_HLS, streamsOf, uriOf, useMediaNode } from './streams.js';

/**
 * The transcoder pipeline: an adjustable-transcode stream's ladder, overlay and epoch time, its HLS master
 * playlist and outgoing tracks, billing as Transcode or Passthrough, restarts and giving up. Pictures are
 * small (a 640x360 source at 15 fps) so the ladder runs in real time on a busy 2-core machine.
 */
const world = useMediaNode();
const { api, createSmallLadderStream, createStream, getStream, messages, snapshot, status, usage } = streamsOf(world);

/** An H.264 track; without a size it is encoded at the source's. */
const h264 = (width: number | undefined, height: number | undefined, bitrate: number) => ({
  type: 'H264',
  ...(width && height ? { width, height } : {}),
  framerate: 15,
  settings: { bitrate, speedPreset: 'ultrafast', tune: 'zerolatency', keyIntMax: 0 },
});
const AAC_48K_STEREO = { type: 'AAC', rate: 48000, channels: 2, settings: { bitrate: 96 } };
const SOURCE = { size: '640x360', rate: 15, source: 'color=c=white' };
/** The logo's colour, and where it goes on the source picture. */
const ORANGE: [number, number, number] = [255, 128, 0];
const LOGO = { x: 20, y: 20, width: 40, height: 20 };

async function adjustable(config: object): Promise<StreamInput> {
  const stream = await createStream({ format: 'RTMP', output: { passthrough: false } });
  const saved = await api('PUT', `/inputs/${stream.id}/output`, config);
  expect(saved.status).toBe(200);
  return stream;
}

/** A PNG of one colour, as a data URI. */
async function pngDataUri(rgb: [number, number, number], width: number, height: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'streamcloud-logo-'));
  try {
    const hex = rgb.map((value) => value.toString(16).padStart(2, '0')).join('');
    const file = join(dir, 'logo.png');
    const made = await runTool(
      'ffmpeg',
      ['-v', 'error', '-f', 'lavfi', '-i', `color=c=0x${hex}:s=${width}x${height}`, '-frames:v', '1', file],
      10_000,
    );
    expect(made.code).toBe(0);
    return `data:image/png;base64,${readFileSync(file).toString('base64')}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Fetches an HLS URL (following the session redirect): the text and the URL it came from. */
async function hls(url: string): Promise<{ status: number; text: string; url: string }> {
  const response = await fetch(url);
  return { status: response.status, text: await response.text(), url: response.url };
}

/** The variants of a master playlist: their attributes and absolute URLs. */
function variants(master: { text: string; url: string }) {
  const lines = master.text.split('\n');
  return lines.flatMap((line, index) => {
    if (!line.startsWith('#EXT-X-STREAM-INF:')) return [];
    const attributes = Object.fromEntries(
      [...line.slice('#EXT-X-STREAM-INF:'.length).matchAll(/([A-Z-]+)=("[^"]*"|[^,]*)/g)].map((match) => [
        match[1],
        (match[2] ?? '').replaceAll('"', ''),
      ]),
    );
    return [{ attributes, url: new URL(lines[index + 1] ?? '', master.url).toString() }];
  });
}

/** The newest complete fragment of a media playlist, as a URL. */
async function newestFragmentOf(playlistUrl: string): Promise<string> {
  const playlist = await hls(playlistUrl);
  const fragments = playlist.text.split('\n').filter((line) => line && !line.startsWith('#'));
  return new URL(fragments[fragments.length - 1] ?? '', playlist.url).toString();
}

/** ffprobe of one fragment (the node's own probe: each track's bitrate from its packets): video and audio. */
async function probeFragment(url: string) {
  const tracks = trackInfos(await probeMedia('ffprobe', url));
  return {
    video: tracks.find((track) => track.type === 'Video'),
    audio: tracks.find((track) => track.type === 'Audio'),
  };
}

/** The pids of the node's transcoder (the ffmpeg encoding H.264 into `<stream>_r0`). */
const transcoders = (streamId: string) =>
  processIds(
    (command) =>
      command.startsWith('/usr/bin/ffmpeg ') && command.includes('libx264') && command.includes(`${streamId}_r0`),
  );

describe('an adjustable-transcode stream', () => {
  it('encodes its ladder with the overlay and the epoch time: HLS master, variants, outgoing tracks and snapshot, billed Transcode', async () => {
    const logo = await pngDataUri(ORANGE, LOGO.width, LOGO.height);
    const ladder = await adjustable({
      epochTimeEncoder: { enabled: true },
      overlay: { data: logo, offsetX: LOGO.x, offsetY: LOGO.y },
      tracks: [h264(undefined, undefined, 300), h264(480, 270, 600), h264(320, 180, 200), AAC_48K_STEREO],
    });
    const output = (
      await api<{ connection: { uri: string } }>('POST', '/outputs', {
        streamId: ladder.id,
        format: 'HLS',
        ...STANDARD_HLS,
      })
    ).body;
    const rtmp = (
      await api<{ connection: { uri: string } }>('POST', '/outputs', { streamId: ladder.id, format: 'RTMP' })
    ).body;
    // A Low latency output of the same ladder: the same master, each variant packaged as LL-HLS by the node.
    const low = (
      await api<{ connection: { uri: string } }>('POST', '/outputs', {
        streamId: ladder.id,
        format: 'HLS',
        hlsLatency: 'Low',
      })
    ).body;
    for (const direction of ['incoming', 'outgoing'])
      await api('PUT', `/snapshots/stream/${ladder.id}/${direction}`, {
        format: 'PNG',
        quality: 'Medium',
        interval: 1,
      });
    const passthrough = await createStream({ format: 'RTMP' });
    const emptyLadder = await adjustable({ tracks: [] });
    const pushes = [ladder, passthrough, emptyLadder].map((stream) =>
      pushTestPattern(uriOf(stream), 'flv', 25, SOURCE),
    );
    try {
      await status(ladder.id, 'Ingestion');

      // The master playlist at the URL the console shows: one variant per rendition, the top one first.
      const master = await waitFor(
        () => hls(output.connection.uri),
        (answer) => answer.status === 200,
        20_000,
        'the master playlist',
      );
      const listed = variants(master);
      expect(listed.map((variant) => variant.attributes)).toEqual([
        {
          BANDWIDTH: '696000',
          RESOLUTION: '480x270',
          CODECS: expect.stringMatching(/^avc1\.42c0[0-9a-f]{2},mp4a\.40\.2$/),
        },
        { BANDWIDTH: '396000', RESOLUTION: '640x360', CODECS: expect.stringMatching(/^avc1\./) },
        { BANDWIDTH: '296000', RESOLUTION: '320x180', CODECS: expect.stringMatching(/^avc1\./) },
      ]);
      const lowMaster = await hls(low.connection.uri);
      expect(variants(lowMaster).map((variant) => variant.attributes)).toEqual(
        listed.map((variant) => variant.attributes),
      );
      for (const variant of variants(lowMaster)) {
        // Each variant is LL-HLS, and reports where its two siblings are (a player switching asks the right part).
        const playlist = await waitFor(
          () => hls(variant.url),
          (answer) =>
            answer.text.includes('#EXT-X-PART:') && answer.text.split('#EXT-X-RENDITION-REPORT:').length === 3,
          20_000,
          'an LL-HLS variant playlist with its rendition reports',
        );
        expect(playlist.text).toMatch(
          /#EXT-X-RENDITION-REPORT:URI="\.\.\/r\d\/index\.m3u8\?sid=[^"]+",LAST-MSN=\d+,LAST-PART=\d+/,
        );
      }
      // The top rendition first; the track without a size has the source's.
      const expected = [
        { width: 480, height: 270, bps: 600_000 },
        { width: 640, height: 360, bps: 300_000 },
        { width: 320, height: 180, bps: 200_000 },
      ];
      for (const [index, variant] of listed.entries()) {
        const playlist = await hls(variant.url);
        // The machine-readable time: every fragment's wall-clock start.
        const times = [...playlist.text.matchAll(/#EXT-X-PROGRAM-DATE-TIME:(.+)/g)].map((match) =>
          Date.parse(match[1] ?? ''),
        );
        expect(times.length).toBeGreaterThan(0);
        expect(Math.abs(Date.now() - (times[times.length - 1] ?? 0))).toBeLessThan(15_000);
        const probed = await probeFragment(await newestFragmentOf(variant.url));
        expect(probed.video).toMatchObject({
          codec: 'H264',
          width: expected[index]?.width,
          height: expected[index]?.height,
        });
        const bps = probed.video?.bps ?? 0;
        expect(Math.abs(bps - (expected[index]?.bps ?? 0)) / (expected[index]?.bps ?? 1)).toBeLessThan(0.2);
        expect(probed.audio).toMatchObject({ codec: 'AAC', rate: 48000, channels: 2 });
        if (index === 2) {
          // The logo scales with the rendition: at half the source's size it sits at half its offsets.
          const fragment = Buffer.from(await (await fetch(await newestFragmentOf(variant.url))).arrayBuffer());
          const [r, g, b] = await pixelAt(fragment, (LOGO.x + LOGO.width / 2) / 2, (LOGO.y + LOGO.height / 2) / 2);
          expect([r, g, b].map((value, channel) => Math.abs(value - ORANGE[channel as 0 | 1 | 2]) < 40)).toEqual([
            true,
            true,
            true,
          ]);
        }
      }

      const outgoing = await waitFor(
        async () =>
          (
            await api<{ type: string; width: number | null; rate: number | null; channels: number | null }[]>(
              'GET',
              `/info/stream/${ladder.id}/outgoing`,
            )
          ).body,
        (tracks) => Array.isArray(tracks) && tracks.length === 4,
        8000,
        'the outgoing tracks',
      );
      expect(outgoing).toEqual([
        expect.objectContaining({ type: 'Video', codec: 'H264', width: 480, height: 270 }),
        expect.objectContaining({ type: 'Video', codec: 'H264', width: 640, height: 360 }),
        expect.objectContaining({ type: 'Video', codec: 'H264', width: 320, height: 180 }),
        expect.objectContaining({ type: 'Audio', codec: 'AAC', rate: 48000, channels: 2 }),
      ]);

      // The outgoing snapshot is the transcoded picture: the logo, and the epoch time's box on the white source.
      const images = await waitFor(
        async () => ({
          incoming: await snapshot(ladder.id, 'incoming'),
          outgoing: await snapshot(ladder.id, 'outgoing'),
        }),
        ({ outgoing: image }) => image !== null,
        8000,
        'both snapshots',
      );
      // The top rendition is 3/4 of the source's size: so are the logo's place and the time's box.
      const logoPixel = await pixelAt(
        images.outgoing as Buffer,
        ((LOGO.x + LOGO.width / 2) * 3) / 4,
        ((LOGO.y + LOGO.height / 2) * 3) / 4,
      );
      expect(logoPixel.map((value, channel) => Math.abs(value - ORANGE[channel as 0 | 1 | 2]) < 40)).toEqual([
        true,
        true,
        true,
      ]);
      expect(Math.max(...(await pixelAt(images.outgoing as Buffer, 5, 262)))).toBeLessThan(160);
      expect(Math.min(...(await pixelAt(images.incoming as Buffer, 6, 350)))).toBeGreaterThan(230);
      // RTMP viewers get the top rendition.
      const pulled = await runTool(
        'ffprobe',
        ['-v', 'error', '-show_entries', 'stream=codec_name,width', '-of', 'csv=p=0', rtmp.connection.uri],
        15_000,
      );
      expect(pulled.stdout.split('\n')).toContain('h264,480');

      // Only the ladder is re-encoded: the passthrough stream and the one with an empty ladder are not.
      const tracksOf = async (direction: string) =>
        (await api<unknown[]>('GET', `/info/stream/${passthrough.id}/${direction}`)).body;
      await waitFor(
        () => tracksOf('outgoing'),
        (tracks) => tracks.length === 2,
        8000,
        'the passthrough tracks',
      );
      expect(await tracksOf('outgoing')).toEqual(await tracksOf('incoming'));
      expect(transcoders(passthrough.id)).toEqual([]);
      expect(transcoders(emptyLadder.id)).toEqual([]);
      expect(transcoders(ladder.id)).toHaveLength(1);
      for (const [stream, processing] of [
        [ladder, 'Transcode'],
        [passthrough, 'Passthrough'],
        [emptyLadder, 'Passthrough'],
      ] as const)
        await waitFor(
          () => usage(stream.id),
          (billed) => billed.upload > 0 && billed.processing.length === 1 && billed.processing[0] === processing,
          10_000,
          `${stream.id} billed as ${processing}`,
        );
    } finally {
      for (const push of pushes) push.stop();
      await Promise.all(pushes.map((push) => push.exited));
    }
  });

  it('applies a ladder saved while Idle to the next push (while in Ingestion the save is refused)', async () => {
    const stream = await createSmallLadderStream();
    const output = (
      await api<{ connection: { uri: string } }>('POST', '/outputs', {
        streamId: stream.id,
        format: 'HLS',
        ...STANDARD_HLS,
      })
    ).body;
    const nextLadder = { tracks: [h264(240, 180, 200), AAC_48K_STEREO] };
    /** Pushes a small picture and checks, while it goes on, that viewers get one rendition of the given size. */
    const pushExpecting = async (width: number, height: number) => {
      const push = pushTestPattern(uriOf(stream), 'flv', 20, { size: '320x240', rate: 15 });
      try {
        await status(stream.id, 'Ingestion');
        const master = await waitFor(
          () => hls(output.connection.uri),
          (answer) => answer.status === 200 && answer.text.includes(`RESOLUTION=${width}x${height}`),
          20_000,
          `the master playlist with ${width}x${height}`,
        );
        const listed = variants(master);
        expect(listed.map((variant) => variant.attributes.RESOLUTION)).toEqual([`${width}x${height}`]);
        const probed = await probeFragment(await newestFragmentOf(listed[0]?.url ?? ''));
        expect(probed.video).toMatchObject({ codec: 'H264', width, height });
        const outgoing = await waitFor(
          async () => (await api<{ width?: number }[]>('GET', `/info/stream/${stream.id}/outgoing`)).body,
          (tracks) => Array.isArray(tracks) && tracks.some((track) => track.width === width),
          8000,
          `the outgoing ${width}x${height} track`,
        );
        expect(outgoing).toEqual([
          expect.objectContaining({ type: 'Video', codec: 'H264', width, height }),
          expect.objectContaining({ type: 'Audio', codec: 'AAC', rate: 48000, channels: 2 }),
        ]);
        // The editor's rule: no new ladder while the push goes on.
        expect((await api('PUT', `/inputs/${stream.id}/output`, nextLadder)).status).toBe(409);
      } finally {
        push.stop();
        await push.exited;
      }
    };

    await pushExpecting(160, 90);
    await status(stream.id, 'Idle', 10_000);
    expect((await api('PUT', `/inputs/${stream.id}/output`, nextLadder)).status).toBe(200);
    await pushExpecting(240, 180);
  });

  it('keeps a Low latency variant playlist answering through a reconnect: it goes on in a new period', async () => {
    const stream = await createSmallLadderStream();
    const output = (
      await api<{ connection: { uri: string } }>('POST', '/outputs', {
        streamId: stream.id,
        format: 'HLS',
        hlsLatency: 'Low',
      })
    ).body;
    let push = pushTestPattern(uriOf(stream), 'flv', 30, { size: '320x240', rate: 15 });
    try {
      await status(stream.id, 'Ingestion');
      const master = await waitFor(
        () => hls(output.connection.uri),
        (answer) => answer.status === 200 && answer.text.includes('#EXT-X-STREAM-INF'),
        20_000,
        'the master playlist',
      );
      const variant = variants(master)[0]?.url ?? '';
      await waitFor(
        () => hls(variant),
        (answer) => answer.text.includes('#EXT-X-PART:'),
        20_000,
        'parts',
      );
      push.stop();
      await push.exited;
      push = pushTestPattern(uriOf(stream), 'flv', 30, { size: '320x240', rate: 15 });
      // Until the new push's renditions are packaged (the transcoder starts again first), the variant's playlist
      // is the one its players had: answered at once, not ended — never missing while the ladder comes back.
      const resumed = await waitFor(
        async () => {
          const started = Date.now();
          const answer = await hls(variant);
          expect(answer.status, answer.text).toBe(200);
          expect(answer.text).not.toContain('#EXT-X-ENDLIST');
          expect(Date.now() - started).toBeLessThan(3000);
          return answer;
        },
        (answer) => answer.text.includes('init-1.mp4'),
        30_000,
        'the variant going on in a new period',
      );
      expect(resumed.text).toContain('#EXT-X-DISCONTINUITY');
      expect(resumed.text).toContain('#EXT-X-MEDIA-SEQUENCE:0');
    } finally {
      push.stop();
      await push.exited;
    }
  });

  it('restarts a crashed transcoder, and after three crashes in a minute says why and plays the push as it came', async () => {
    const stream = await adjustable({ tracks: [h264(1280, 720, 500), AAC_48K_STEREO] });
    const output = (
      await api<{ connection: { uri: string } }>('POST', '/outputs', {
        streamId: stream.id,
        format: 'HLS',
        ...STANDARD_HLS,
      })
    ).body;
    const push = pushTestPattern(uriOf(stream), 'flv', 40, { ...SOURCE, source: 'testsrc' });
    try {
      await status(stream.id, 'Ingestion');
      await waitFor(
        () => messages(stream.id),
        (texts) =>
          texts.some((text) =>
            text.startsWith('H264 1280x720 is larger than the source (640x360): encoded at 640x360'),
          ),
        10_000,
        'the note that the rendition is not upscaled',
      );
      let killed: number[] = [];
      for (let crash = 1; crash <= 3; crash++) {
        const [pid] = await waitFor(
          async () => transcoders(stream.id).filter((id) => !killed.includes(id)),
          (pids) => pids.length === 1,
          10_000,
          `the transcoder running before crash ${crash}`,
        );
        process.kill(pid as number, 'SIGKILL');
        killed = [...killed, pid as number];
      }
      const texts = await waitFor(
        () => messages(stream.id),
        (list) => list.some((text) => text.startsWith('Transcoding failed 3 times within a minute')),
        10_000,
        'the Error message',
      );
      expect(
        texts.filter((text) => text.startsWith('The transcoder failed (ffmpeg was killed by signal 9); restarting in')),
      ).toHaveLength(2);
      const error = (await getStream(stream.id)).statusMessages.find((message) =>
        message.text.startsWith('Transcoding failed'),
      );
      expect(error).toMatchObject({
        level: 'error',
        text: 'Transcoding failed 3 times within a minute (ffmpeg was killed by signal 9): viewers get the stream as it is pushed',
      });
      expect(transcoders(stream.id)).toEqual([]);
      // Viewers get the push itself: a media playlist of the 640x360 source.
      const playlist = await waitFor(
        () => hls(output.connection.uri),
        (answer) => answer.status === 200 && answer.text.includes('#EXTINF'),
        8000,
        'the source playlist',
      );
      expect(playlist.text).not.toContain('#EXT-X-STREAM-INF');
      const probed = await probeFragment(await newestFragmentOf(output.connection.uri));
      expect(probed.video).toMatchObject({ width: 640, height: 360 });
      expect((await getStream(stream.id)).status).toBe('Ingestion');
    } finally {
      push.stop();
      await push.exited;
    }
  });
});
