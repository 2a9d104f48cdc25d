import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { uriWithToken } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import { srtDataCopyArgs } from '../src/front-ends/srt/port.js';
import { pushTestPattern, runTool, sleep, waitFor } from './harness.js';
import { STANDARD_HLS, streamsOf, uriOf, useMediaNode } from './streams.js';

/** SRT viewers: played at the URL the API gives (its own port), admitted by stream id, billed, disconnected. */
const world = useMediaNode('srt-playback');
const { api, createStream, createSmallLadderStream, createOutput, outputs, status, usage } = streamsOf(world);

/** An SRT caller keeping every MPEG-TS byte it gets: what the viewer received. */
function srtReader(url: string) {
  // Its log is not read: ignored, so a full pipe never stalls it.
  const child = spawn('ffmpeg', srtDataCopyArgs(url, 'pipe:1'), { stdio: ['ignore', 'pipe', 'ignore'] });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  return {
    received: () => Buffer.concat(chunks),
    exited: new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code))),
    stop: () => child.kill('SIGKILL'),
  };
}

describe('SRT playback', () => {
  it("plays a Private stream's SRT output at the URL the API gives, token in the stream id: decoded, a session, billed bytes", async () => {
    const stream = await createStream({ format: 'RTMP', access: 'Private' });
    const output = await createOutput(stream.id, 'SRT');
    const bare = output.connection?.uri ?? '';
    expect(bare).toMatch(/^srt:\/\/127\.0\.0\.1:\d+\?streamid=out%2B[0-9a-f-]{36}$/);
    expect(bare).not.toContain(`:${world.node.srtPort}?`);
    const url = uriWithToken(bare, output.viewer.accessToken);
    const push = pushTestPattern(`${uriOf(stream)}?token=${encodeURIComponent(stream.accessToken ?? '')}`, 'flv', 10);
    try {
      await status(stream.id, 'Ingestion');
      // The one viewer, keeping every byte it gets from the start to the end of the push.
      const reader = srtReader(url);
      // Without its token the caller is let go with nothing (and nothing is billed for it).
      const refused = await runTool('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name', bare], 15_000);
      expect(refused.stdout).not.toContain('h264');
      expect(refused.code).not.toBe(0);

      const session = await waitFor(
        () => outputs(stream.id),
        (list) => list[0]?.sessions.length === 1 && list[0].sessions[0]?.ipAddress === '127.0.0.1',
        8000,
        'the SRT viewer session',
      );
      expect(session[0]?.sessions[0]?.id).toMatch(/^srt-/);
      // The push ends: the reader is let go once it has all the node sent.
      expect(await push.exited).toBe(0);
      expect(await Promise.race([reader.exited, sleep(10_000).then(() => 'still reading')])).not.toBe('still reading');
      const bytes = reader.received();
      const received = bytes.length;
      expect(received).toBeGreaterThan(50_000);
      // What it got decodes: the pushed picture, as MPEG-TS.
      const file = join(mkdtempSync(join(tmpdir(), 'srt-viewer-')), 'received.ts');
      writeFileSync(file, bytes);
      const probe = await runTool(
        'ffprobe',
        ['-v', 'error', '-show_entries', 'stream=codec_name,width', '-of', 'csv=p=0', file],
        15_000,
      );
      rmSync(dirname(file), { recursive: true, force: true });
      expect(probe.stdout, probe.stderr).toContain('h264,320');
      await waitFor(
        () => outputs(stream.id),
        (list) => list[0]?.sessions.length === 0,
        8000,
        'the SRT session to end',
      );
      const billed = await waitFor(
        async () => (await usage(stream.id)).outgoing,
        (value) => value >= received,
        10_000,
        'the SRT bytes billed',
      );
      expect(Math.abs(billed - received) / received).toBeLessThan(0.005);
    } finally {
      push.stop();
    }
  });

  it('disconnects an SRT viewer at once when its output is deleted, and refuses it (and a deleted HLS output) afterwards', async () => {
    const stream = await createStream({ format: 'RTMP' });
    const output = await createOutput(stream.id, 'SRT');
    const hls = await createOutput(stream.id, 'HLS', STANDARD_HLS);
    const url = output.connection?.uri ?? '';
    const playlist = hls.connection?.uri ?? '';
    const push = pushTestPattern(uriOf(stream), 'flv', 20);
    try {
      await status(stream.id, 'Ingestion');
      const reader = srtReader(url);
      await waitFor(
        () => outputs(stream.id),
        (list) => list.find((one) => one.id === output.id)?.sessions.length === 1,
        8000,
        'the SRT viewer session',
      );
      expect((await api('DELETE', `/outputs/${output.id}`)).status).toBe(204);
      expect(await Promise.race([reader.exited, sleep(6000).then(() => 'still playing')])).not.toBe('still playing');
      const again = await runTool('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name', url], 15_000);
      expect(again.stdout).not.toContain('h264');

      // An HLS output's next request after its deletion reaches the node is refused.
      await waitFor(
        async () => (await fetch(playlist)).status,
        (code) => code === 200,
        8000,
        'the HLS playlist',
      );
      expect((await api('DELETE', `/outputs/${hls.id}`)).status).toBe(204);
      await waitFor(
        async () => (await fetch(playlist)).status,
        (code) => code === 404,
        4000,
        'the deleted HLS output refused',
      );
    } finally {
      push.stop();
      await push.exited;
    }
  });

  it("gives SRT and RTMP viewers who join as the push starts an adjustable-transcode stream's top rendition, not the push", async () => {
    const stream = await createSmallLadderStream();
    const srt = (await createOutput(stream.id, 'SRT')).connection?.uri ?? '';
    const rtmp = (await createOutput(stream.id, 'RTMP')).connection?.uri ?? '';
    const videoOf = (url: string) =>
      waitFor(
        () =>
          runTool(
            'ffprobe',
            ['-v', 'error', '-show_entries', 'stream=codec_name,width,height', '-of', 'csv=p=0', url],
            15_000,
          ),
        (result) => result.stdout.includes('h264'),
        30_000,
        `the video of ${url}`,
      );
    // The push is 320x240; the ladder's one video rendition is 160x90, ready a few seconds after the push.
    const push = pushTestPattern(uriOf(stream), 'flv', 20);
    try {
      await status(stream.id, 'Ingestion');
      const [bySrt, byRtmp] = await Promise.all([videoOf(srt), videoOf(rtmp)]);
      for (const probe of [bySrt, byRtmp]) {
        expect(probe.stdout).toContain('h264,160,90');
        expect(probe.stdout).not.toContain('320');
      }
    } finally {
      push.stop();
      await push.exited;
    }
  });
});
