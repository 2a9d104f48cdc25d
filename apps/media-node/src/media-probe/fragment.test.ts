import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool } from '../child.js';
import { type ProbedTrack, probeMedia } from '../probe.js';
import { fragmentTracks } from './fragment.js';

/**
 * The node's own reading of an MPEG-TS fragment against ffprobe's on the same file, for what pushes send: each
 * case is 1 s of a test pattern and a tone made by ffmpeg (small pictures, so the suite stays quick).
 */
const CASES: Record<string, string[]> = {
  'High with B-frames, AAC mono 44.1 kHz': [
    ...video('320x240', 15),
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-bf', '2', '-profile:v', 'high', '-g', '15'],
    ...['-c:a', 'aac', '-ac', '1', '-ar', '44100'],
  ],
  'Constrained Baseline, a cropped picture, AAC stereo 48 kHz': [
    ...video('160x90', 30),
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-profile:v', 'baseline', '-g', '30'],
    ...['-c:a', 'aac', '-ac', '2', '-ar', '48000'],
  ],
  'Main without B-frames, full range, no audio': [
    ...video('176x144', 10, 'yuvj420p'),
    ...['-an', '-c:v', 'libx264', '-preset', 'ultrafast', '-bf', '0', '-profile:v', 'main', '-g', '10'],
  ],
  'High 4:4:4 Predictive': [
    ...video('128x72', 25, 'yuv444p'),
    ...['-an', '-c:v', 'libx264', '-preset', 'ultrafast', '-bf', '0', '-profile:v', 'high444', '-g', '25'],
  ],
  'MP3 only': ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=22050', '-c:a', 'libmp3lame', '-b:a', '64k'],
};

/** Cases the node leaves to ffprobe. */
const LEFT_TO_FFPROBE: Record<string, string[]> = {
  H265: [...video('128x72', 10), '-an', '-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=none'],
  'AAC LTP': ['-f', 'lavfi', '-i', 'sine', '-c:a', 'aac', '-strict', '-2', '-profile:a', 'aac_ltp'],
};

function video(size: string, rate: number, pixFmt = 'yuv420p'): string[] {
  return ['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=${rate}`, '-f', 'lavfi', '-i', 'sine', '-pix_fmt', pixFmt];
}

let dir = '';
const files = new Map<string, string>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fragment-probe-'));
  await Promise.all(
    Object.entries({ ...CASES, ...LEFT_TO_FFPROBE }).map(async ([name, args], index) => {
      const file = join(dir, `${index}.ts`);
      await runTool('ffmpeg', ['-v', 'error', ...args, '-t', '1', '-f', 'mpegts', file], 20_000);
      files.set(name, file);
    }),
  );
}, 30_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

/** A track as compared: the bitrate within 2 % (ffprobe sums its own packet durations). */
const comparable = ({ bps, ...track }: ProbedTrack) => ({ ...track, kbps: Math.round((bps ?? 0) / 1000 / 2) * 2 });

describe('a fragment read in the node says what ffprobe says of it', () => {
  for (const name of Object.keys(CASES)) {
    it(name, async () => {
      const file = files.get(name) ?? '';
      const own = fragmentTracks(await readFile(file));
      const probed = await probeMedia('ffprobe', file);
      expect(own).not.toBeNull();
      expect(own?.map(comparable)).toEqual(probed.map(comparable));
      for (const [index, track] of (own ?? []).entries())
        expect(Math.abs((track.bps ?? 0) / (probed[index]?.bps ?? 1) - 1)).toBeLessThan(0.02);
    });
  }

  it('leaves H.265 and other AAC object types to ffprobe', async () => {
    for (const name of Object.keys(LEFT_TO_FFPROBE))
      expect(fragmentTracks(await readFile(files.get(name) ?? '')), name).toBeNull();
  });

  it('gives up on what is not MPEG-TS, or is cut short', async () => {
    const file = await readFile(files.get(Object.keys(CASES)[0] ?? '') ?? '');
    expect(fragmentTracks(Buffer.from('#EXTM3U\n'))).toBeNull();
    expect(fragmentTracks(file.subarray(0, 188 * 3 + 100))).toBeNull();
    const corrupt = Buffer.from(file);
    corrupt.fill(0xff, 188 * 4, 188 * 40);
    expect(fragmentTracks(corrupt)).toBeNull();
  });
});
