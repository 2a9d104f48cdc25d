import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clip, StreamInput, StreamOutput } from '@streamcloud/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Push, pushTestPattern, runTool, waitFor } from './harness.js';
import { createStorage } from './recordings.js';
import { downloadObject, type LocalS3Server, probeFile, startLocalS3 } from './s3.js';
import { openHlsSession, streamsOf, uriOf, useMediaNode } from './streams.js';

/**
 * Issue 35's checks that need over a minute of rewind window, on one push (a media-late file, beside e2e):
 * - "a live HLS viewer seeks 60 s back and returns to live", with ffprobe as the HLS viewer: started 60 segments
 *   (60 s) behind the live edge it decodes what was pushed a minute before what a viewer at the live edge decodes
 *   (the frames' times are the push's own). The console's player seeking in Chromium (the Seek bar, Live): e2e
 *   clips-live; its time to the first frame 60–80 s back: `npm run bench -- vod`.
 * - "a 30 s clip from the DVR window is ready within 5 s and ffprobe reads 30 s (± 1 GOP) of the same content",
 *   uploaded to a real local S3 server (clips.test.ts has the clips' short cases).
 */
const world = useMediaNode('media-1', { REPORT_INTERVAL_MS: '500' });
const { api, createStream, createOutput, status } = streamsOf(world);

const BACK_SECONDS = 60;
/** The push outlives the check: a keyframe (a segment) a second, small pictures. */
const PUSH_SECONDS = BACK_SECONDS + 25;

let stream: StreamInput;
let rewind: StreamOutput;
let push: Push;
let s3: LocalS3Server;

beforeAll(async () => {
  s3 = await startLocalS3(['clips']);
  stream = await createStream({ format: 'RTMP' });
  rewind = await createOutput(stream.id, 'HLS', { hlsLatency: 'Low', dvrWindowMinutes: 2 });
  push = pushTestPattern(uriOf(stream), 'flv', PUSH_SECONDS, { size: '160x120', rate: 15 });
  await status(stream.id, 'Ingestion', 15_000);
}, 30_000);
afterAll(async () => {
  push?.stop();
  await push?.exited;
  await s3?.close();
});

/**
 * What an HLS viewer started `back` segments behind the playlist's end decodes first: the time of its first video
 * frame, seconds (ffmpeg's HLS demuxer's `live_start_index`: -1 is the live edge).
 */
async function firstFrameTime(playlist: URL, back: number): Promise<number> {
  const probed = await runTool(
    'ffprobe',
    [
      ...['-v', 'error', '-live_start_index', String(-back), '-select_streams', 'v:0'],
      ...['-show_entries', 'frame=pts_time', '-read_intervals', '%+#1', '-of', 'csv=p=0', playlist.href],
    ],
    20_000,
  );
  expect(probed.code, probed.stderr).toBe(0);
  const time = Number.parseFloat(probed.stdout.trim().split('\n')[0] ?? '');
  expect(Number.isFinite(time), probed.stdout).toBe(true);
  return time;
}

describe('a live HLS viewer of an output with a rewind window', () => {
  it('starts 60 s back and plays what was pushed a minute earlier; at the live edge, what is pushed now', async () => {
    const playlist = await openHlsSession(rewind);
    const segments = (text: string) => text.match(/^seg-\d+\.m4s/gm)?.length ?? 0;
    await waitFor(
      async () => segments(await (await fetch(playlist)).text()),
      (count) => count > BACK_SECONDS + 2,
      (BACK_SECONDS + 20) * 1000,
      `a rewind window of over ${BACK_SECONDS} s`,
    );
    const back = await firstFrameTime(playlist, BACK_SECONDS);
    const live = await firstFrameTime(playlist, 1);
    // A minute apart, give or take a segment on each side (the playlist grows while the two viewers start).
    expect(live - back).toBeGreaterThan(BACK_SECONDS - 2);
    expect(live - back).toBeLessThan(BACK_SECONDS + 3);
    // Back at the live edge: the newest second of the push.
    expect(live).toBeGreaterThan(BACK_SECONDS);
  }, 120_000);
});

/** The first picture of an MP4 file (or of an init segment followed by a segment), decoded: its MD5. */
async function firstPicture(file: string): Promise<string> {
  const decoded = await runTool(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-map', '0:v:0', '-frames:v', '1', '-f', 'md5', '-'],
    20_000,
  );
  expect(decoded.code, decoded.stderr).toBe(0);
  return decoded.stdout.trim();
}

describe('a 30 s clip of the rewind window', () => {
  it('is Ready within 5 s of the call with 30 s (± a keyframe interval) of the same pictures', async () => {
    const storageId = (await createStorage(api, s3, { bucket: 'clips', path: 'rewind' })).id;
    const playlist = await openHlsSession(rewind);
    const text = await (await fetch(playlist)).text();
    // Each segment's program date and file (the date tag comes right before its segment).
    const segments = [...text.matchAll(/#EXT-X-PROGRAM-DATE-TIME:(\S+)\n(?:#.*\n)*(seg-\d+\.m4s\S*)/g)].map(
      (match) => ({ date: Date.parse(match[1] ?? ''), file: match[2] ?? '' }),
    );
    expect(segments.length).toBeGreaterThan(40);
    // Ending 10 s before the live edge; from mid-segment, so the cut starts at that segment's keyframe.
    const start = segments[segments.length - 41];
    if (!start) throw new Error('no segment 40 s back');
    const from = start.date + 500;
    const calledAt = Date.now();
    const created = await api<Clip>('POST', '/clips', {
      streamId: stream.id,
      from: new Date(from).toISOString(),
      to: new Date(from + 30_000).toISOString(),
      caption: 'Thirty seconds',
      storageId,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const clip = await waitFor(
      async () => (await api<Clip>('GET', `/clips/${created.body.id}`)).body,
      (each) => each.state === 'Ready' || each.state === 'Error',
      10_000,
      'the clip finished',
    );
    const readyAfterMs = Date.now() - calledAt;
    expect(clip, clip.message ?? '').toMatchObject({ state: 'Ready' });
    expect(readyAfterMs).toBeLessThanOrEqual(5000);
    console.log(`30 s clip of the rewind window Ready ${readyAfterMs} ms after the call`);

    const file = await downloadObject(s3, 'clips', clip.objectKey ?? '');
    const probed = await probeFile(file);
    // 30 s asked, from the keyframe 0.5 s before `from`: 30.5 s, within a GOP (1 s) of 30.
    expect(probed.duration).toBeGreaterThanOrEqual(29.5);
    expect(probed.duration).toBeLessThanOrEqual(31.5);
    // The same content: its first picture is the one the rewind window's segment at `from` starts with.
    const [init, segment] = await Promise.all(
      [text.match(/#EXT-X-MAP:URI="([^"]+)"/)?.[1] ?? '', start.file].map(async (name) =>
        Buffer.from(await (await fetch(new URL(name, playlist))).arrayBuffer()),
      ),
    );
    const windowed = join(await mkdtemp(join(tmpdir(), 'streamcloud-rewind-')), 'segment.mp4');
    await writeFile(windowed, Buffer.concat([init ?? Buffer.alloc(0), segment ?? Buffer.alloc(0)]));
    expect(await firstPicture(file)).toBe(await firstPicture(windowed));
  }, 60_000);
});
