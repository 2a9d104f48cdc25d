import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cutFromWindow } from '../clips/cut.js';
import { createLogger } from '../log.js';
import { StreamEvents } from '../streams/events.js';
import { DiskBudget, DvrStore } from './dvr-store.js';
import { fmp4OutputArgs, parseLowLatencyFile } from './files.js';
import { LowLatencyPackager } from './packager.js';
import { LowLatencyPackagers } from './packagers.js';

const run = promisify(execFile);

/**
 * The LL-HLS packager on real fragmented MP4: ffmpeg encodes 3 s of a test pattern (30 fps, a keyframe a second,
 * AAC) with the packager's own output arguments, and the bytes go in as odd-sized chunks.
 */
let both: Buffer;
let videoOnly: Buffer;
let long: Buffer;
let late: Buffer;
const dir = mkdtempSync(join(tmpdir(), 'll-hls-test-'));

/** `seconds` of a 160x90 pattern (and a tone), as the packaging ffmpeg writes a push (its own movflags). */
async function encode(seconds: number, tracks: 'both' | 'video'): Promise<Buffer> {
  const output = fmp4OutputArgs(1 / 3).filter((arg, i, all) => arg !== 'copy' && all[i + 1] !== 'copy');
  const { stdout } = await run(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=160x90:rate=30'],
      ...(tracks === 'both' ? ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'] : []),
      ...['-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '30', '-bf', '0'],
      ...(tracks === 'both' ? ['-c:a', 'aac'] : []),
      ...output,
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}

/**
 * 3 s of the pattern whose video starts 0.8 s after its tone, copied with the packager's own arguments as the
 * packaging ffmpeg copies a push: nginx sends a new player audio before the video's first keyframe (`wait_video off`).
 */
async function encodeVideoLate(): Promise<Buffer> {
  const common = ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi'];
  const video = join(dir, 'late-video.ts');
  const audio = join(dir, 'late-audio.ts');
  await run('ffmpeg', [
    ...common,
    '-i',
    'testsrc2=size=160x90:rate=30',
    '-t',
    '3',
    '-c:v',
    'libx264',
    '-g',
    '30',
    video,
  ]);
  await run('ffmpeg', [...common, '-i', 'sine=frequency=440:sample_rate=48000', '-t', '3.8', '-c:a', 'aac', audio]);
  const { stdout } = await run(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-itsoffset', '0.8', '-i', video, '-i', audio],
      ...['-map', '0:v', '-map', '1:a', '-bsf:a', 'aac_adtstoasc', ...fmp4OutputArgs(1 / 3)],
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}

beforeAll(async () => {
  [both, videoOnly, long, late] = await Promise.all([
    encode(3, 'both'),
    encode(2, 'video'),
    encode(9, 'video'),
    encodeVideoLate(),
  ]);
}, 30_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const options = { partTarget: 1 / 3, segmentMin: 1, keepSegments: 12, maxBytes: 16 * 1024 * 1024 };

/** Feeds `bytes` to the packager `size` bytes at a time. */
function feed(packager: LowLatencyPackager, bytes: Buffer, size: number): void {
  for (let offset = 0; offset < bytes.length; offset += size) packager.write(bytes.subarray(offset, offset + size));
}

const lines = (playlist: string) => playlist.trimEnd().split('\n');

describe('the LL-HLS packager', () => {
  it('cuts parts of at most the part target, segments on keyframes, and serves them whole', async () => {
    const packager = new LowLatencyPackager(options);
    feed(packager, both, 7);
    packager.end();
    expect(packager.codecs()).toMatch(/^avc1\.[0-9a-f]{6},mp4a\.40\.2$/);
    expect(packager.resolution()).toEqual({ width: 160, height: 90 });
    const playlist = lines(packager.playlist());
    const parts = playlist.filter((line) => line.startsWith('#EXT-X-PART:'));
    const durations = parts.map((line) => Number(/DURATION=([\d.]+)/.exec(line)?.[1]));
    expect(durations.length).toBeGreaterThanOrEqual(9);
    for (const duration of durations) expect(duration).toBeLessThanOrEqual(1 / 3 + 1e-6);
    // Three segments of a second (the first a frame longer: ffmpeg's first frame), each starting on its keyframe,
    // the only independent part.
    const segments = playlist.filter((line) => line.startsWith('#EXTINF:')).map((line) => Number(line.slice(8, -1)));
    expect(segments).toHaveLength(3);
    for (const duration of segments) expect(duration).toBeCloseTo(1, 1);
    expect(parts.filter((line) => line.endsWith(',INDEPENDENT=YES'))).toHaveLength(3);
    expect(parts[0]).toMatch(/URI="part-0\.0\.m4s",INDEPENDENT=YES$/);
    expect(playlist.at(-1)).toBe('#EXT-X-ENDLIST');

    // A segment is its parts' bytes; with the init segment ffprobe decodes its second: 30 frames, and the audio.
    const segment = (await packager.segment(1)) as Buffer;
    const partsOf1 = [0, 1, 2, 3].map((index) => packager.part(1, index)).filter((part) => part !== null);
    expect(Buffer.concat(partsOf1)).toEqual(segment);
    const file = join(dir, 'segment.mp4');
    writeFileSync(file, Buffer.concat([packager.init(0) as Buffer, segment]));
    const probe = await run('ffprobe', [
      ...['-v', 'error', '-count_frames', '-show_entries', 'stream=codec_name,nb_read_frames', '-of', 'csv=p=0', file],
    ]);
    const streams = probe.stdout
      .trim()
      .split('\n')
      .map((line) => line.split(','));
    expect(streams[0]).toEqual(['h264', '30']);
    expect(streams[1]?.[0]).toBe('aac');
  });

  it('starts a period whose video comes after its audio at the next keyframe: no part longer than the target', () => {
    const packager = new LowLatencyPackager(options);
    feed(packager, late, 1000);
    packager.end();
    const playlist = lines(packager.playlist());
    expect(playlist).toContain('#EXT-X-PART-INF:PART-TARGET=0.33333');
    const durations = playlist
      .filter((line) => line.startsWith('#EXT-X-PART:'))
      .map((line) => Number(/DURATION=([\d.]+)/.exec(line)?.[1]));
    expect(durations.length).toBeGreaterThanOrEqual(3);
    for (const duration of durations) expect(duration).toBeLessThanOrEqual(1 / 3 + 1e-6);
  });

  it('writes the LL-HLS tags: server control, part target, the init, program dates and a preload hint', () => {
    let now = Date.parse('2026-11-28T12:00:00.000Z');
    const packager = new LowLatencyPackager({ ...options, now: () => now++ });
    feed(packager, both, 4096);
    const playlist = lines(packager.playlist({ uri: (file) => `${file}?sid=s1` }));
    expect(playlist.slice(0, 6)).toEqual([
      '#EXTM3U',
      '#EXT-X-VERSION:9',
      '#EXT-X-TARGETDURATION:1',
      '#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1,CAN-SKIP-UNTIL=6',
      '#EXT-X-PART-INF:PART-TARGET=0.33333',
      '#EXT-X-MEDIA-SEQUENCE:0',
    ]);
    expect(playlist[6]).toBe('#EXT-X-MAP:URI="init-0.mp4?sid=s1"');
    // Dates follow the media clock from the first part (the second keyframe is 1.021 s in: ffmpeg's first frame).
    const dates = playlist.filter((line) => line.startsWith('#EXT-X-PROGRAM-DATE-TIME:'));
    expect(dates.slice(0, 3)).toEqual([
      '#EXT-X-PROGRAM-DATE-TIME:2026-11-28T12:00:00.000Z',
      '#EXT-X-PROGRAM-DATE-TIME:2026-11-28T12:00:01.021Z',
      '#EXT-X-PROGRAM-DATE-TIME:2026-11-28T12:00:02.021Z',
    ]);
    const last = packager.lastPart();
    expect(playlist.at(-1)).toBe(
      `#EXT-X-PRELOAD-HINT:TYPE=PART,URI="part-${last?.msn}.${(last?.part ?? 0) + 1}.m4s?sid=s1"`,
    );
  });

  it('holds a blocking request until its part exists; refuses one too far ahead; answers all when the push ends', async () => {
    const packager = new LowLatencyPackager(options);
    const half = Math.floor(both.length / 2);
    feed(packager, both.subarray(0, half), 1000);
    const last = packager.lastPart() ?? { msn: 0, part: 0 };
    const next = packager.waitFor(last.msn, last.part + 1, 5000);
    const hinted = packager.waitForPart(last.msn, last.part + 1, 5000);
    expect(await packager.waitFor(last.msn + 3, 0, 5000)).toBe('too-far');
    expect(await packager.waitFor(last.msn, last.part, 5000)).toBe('ready');
    let answered = false;
    void next.then(() => {
      answered = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    feed(packager, both.subarray(half), 1000);
    expect(await next).toBe('ready');
    expect(await hinted).toBe('ready');
    expect(await packager.waitFor(last.msn + 1, 0, 20)).toBe('ready');
    const later = packager.lastPart() ?? { msn: 0, part: 0 };
    const pending = packager.waitFor(later.msn + 1, 5, 5000);
    packager.end();
    expect(await pending).toBe('ended');
    expect(await packager.waitFor(later.msn + 2, 0, 5000)).toBe('ended');
  });

  it('starts a period at a new run (a discontinuity, its own init), skips old segments in a delta update, and keeps its bound', () => {
    const packager = new LowLatencyPackager({ ...options, keepSegments: 4 });
    feed(packager, both, 65_536);
    packager.startPeriod();
    feed(packager, videoOnly, 65_536);
    packager.startPeriod();
    feed(packager, both, 65_536);
    const playlist = lines(packager.playlist());
    // 3 + 2 + 3 segments, 4 complete kept (the last is still open): the first period left.
    expect(playlist).toContain('#EXT-X-MEDIA-SEQUENCE:3');
    expect(playlist).toContain('#EXT-X-DISCONTINUITY-SEQUENCE:1');
    expect(playlist.filter((line) => line === '#EXT-X-DISCONTINUITY')).toHaveLength(1);
    expect(playlist.filter((line) => line.startsWith('#EXT-X-MAP:'))).toEqual([
      '#EXT-X-MAP:URI="init-1.mp4"',
      '#EXT-X-MAP:URI="init-2.mp4"',
    ]);
    expect(packager.init(0)).toBeNull();
    expect(packager.init(2)?.toString('latin1', 4, 8)).toBe('ftyp');

    // A long playlist's delta update leaves out what is older than CAN-SKIP-UNTIL (6 s).
    const nine = new LowLatencyPackager(options);
    feed(nine, long, 65_536);
    const delta = lines(nine.playlist({ skip: true }));
    const full = lines(nine.playlist());
    expect(delta.find((line) => line.startsWith('#EXT-X-SKIP:'))).toMatch(/^#EXT-X-SKIP:SKIPPED-SEGMENTS=[1-9]\d*$/);
    expect(delta.length).toBeLessThan(full.length);
    expect(full).toContain('#EXT-X-MEDIA-SEQUENCE:0');
    // Its bytes bound memory too: at a fifth of what nine seconds take, the oldest segments leave.
    const bound = Math.floor(nine.memoryBytes() / 5);
    const bounded = new LowLatencyPackager({ ...options, maxBytes: bound });
    feed(bounded, long, 65_536);
    expect(lines(bounded.playlist())).not.toContain('#EXT-X-MEDIA-SEQUENCE:0');
    expect(bounded.memoryBytes()).toBeLessThan(nine.memoryBytes() / 2);
  });

  it('lists again, after a restart, the rewind window it wrote to disk, and goes on after it in a new period', async () => {
    const store = join(dir, 'restart');
    const budget = new DiskBudget(1024 ** 3);
    const before = new LowLatencyPackager({ ...options, keepSegments: 1 });
    before.setDvr({ store: new DvrStore(store, budget), windowSeconds: 60 });
    feed(before, long, 65_536);
    before.end();
    const written = lines(before.playlist({ windowSeconds: 60 })).filter((line) => line.startsWith('seg-'));
    expect(written.length).toBeGreaterThanOrEqual(8);
    // Each on disk, and named in the index (the last is written as the push ends).
    const indexed = () =>
      existsSync(join(store, 'index.jsonl')) ? lines(readFileSync(join(store, 'index.jsonl'), 'utf8')) : [];
    await expect.poll(() => indexed().length).toBe(written.length);

    // The next run of the node: a new budget and store on the same folder, then this run's push.
    const restartedBudget = new DiskBudget(1024 ** 3);
    const restoredStore = new DvrStore(store, restartedBudget);
    const restored = restoredStore.restore(60, Date.now());
    expect(restored?.segments.map((segment) => `seg-${segment.msn}.m4s`)).toEqual(written);
    expect(restartedBudget.used).toBe(restored?.segments.reduce((sum, segment) => sum + segment.bytes, 0));
    const after = new LowLatencyPackager(options);
    after.restore(restored ?? { segments: [], inits: new Map() });
    after.setDvr({ store: restoredStore, windowSeconds: 60 });
    feed(after, both, 65_536);
    const playlist = lines(after.playlist({ windowSeconds: 60 }));
    expect(playlist).toContain('#EXT-X-MEDIA-SEQUENCE:0');
    expect(playlist.filter((line) => line.startsWith('seg-')).slice(0, written.length)).toEqual(written);
    expect(playlist.filter((line) => line === '#EXT-X-DISCONTINUITY')).toHaveLength(1);
    expect(playlist.filter((line) => line.startsWith('#EXT-X-MAP:'))).toEqual([
      '#EXT-X-MAP:URI="init-0.mp4"',
      '#EXT-X-MAP:URI="init-1.mp4"',
    ]);
    expect(after.init(0)).toEqual(before.init(0));
    expect(await after.segment(0)).toEqual(await before.segment(0));

    // Outside the window (an hour later) nothing stays, and the folder goes.
    expect(new DvrStore(store, new DiskBudget(1024 ** 3)).restore(60, Date.now() + 3_600_000)).toBeNull();
  });

  it("goes on with a ladder variant's numbering when the variant comes back (the renditions restarted)", () => {
    const packagers = new LowLatencyPackagers(new StreamEvents(createLogger('silent')), {
      dataDir: join(dir, 'ladder'),
      dvrMaxBytes: 1024 ** 3,
    });
    const ladder = ['r0', 'r1'];
    feed(packagers.begin('in', 'r0', ladder), both, 65_536);
    const before = lines(packagers.of('in', 'r0')?.playlist() ?? '');
    // The last number listed: a complete segment's, or the open one's parts (a player may hold those).
    const lastBefore = Math.max(
      ...before
        .flatMap((line) => /^seg-(\d+)\.m4s$|^#EXT-X-PART:.*URI="part-(\d+)\./.exec(line)?.slice(1) ?? [])
        .map(Number)
        .filter(Number.isFinite),
    );
    // The transcoder restarts: for a moment the stream is played as it came (no ladder), then the ladder is back.
    packagers.begin('in', null, [null]);
    expect(packagers.of('in', 'r0')).toBeNull();
    const back = packagers.begin('in', 'r0', ladder);
    feed(back, both, 65_536);
    const after = lines(back.playlist());
    const first = Number(after.find((line) => line.startsWith('#EXT-X-MEDIA-SEQUENCE:'))?.split(':')[1]);
    // A player that followed r0 asks for the next numbers: the playlist goes on there, in a new period.
    expect(first).toBe(lastBefore + 1);
    expect(after).toContain('#EXT-X-DISCONTINUITY-SEQUENCE:1');
    expect(after.find((line) => line.startsWith('#EXT-X-MAP:'))).toBe('#EXT-X-MAP:URI="init-1.mp4"');
    packagers.close();
  });

  it('hands a clip the segments from the keyframe at or before from up to to, one run per period, and ffmpeg copies them', async () => {
    let now = 1_000_000;
    const packager = new LowLatencyPackager({ ...options, now: () => now });
    feed(packager, long, 65_536);
    // A reconnect 20 s later: a new period with its own init.
    now = 1_020_000;
    packager.startPeriod();
    feed(packager, both, 65_536);
    packager.end();
    expect(await packager.clip(999_000, 1_002_000)).toBe('before');
    expect(await packager.clip(1_020_500, 1_030_000)).toBe('after');

    const within = await packager.clip(1_002_500, 1_005_000);
    if (typeof within === 'string') throw new Error(within);
    // From segment 2 (its keyframe at 2 s, half a second before `from`) to segment 4 (starting before `to`).
    expect(within.startMs).toBeCloseTo(1_002_000, -2);
    expect(within.seconds).toBeCloseTo(3, 1);
    expect(within.runs).toHaveLength(1);
    expect(within.runs[0]?.chunks).toEqual([
      packager.init(0),
      ...(await Promise.all([2, 3, 4].map((msn) => packager.segment(msn)))),
    ]);

    const across = await packager.clip(1_008_200, 1_021_500);
    if (typeof across === 'string') throw new Error(across);
    expect(across.runs.map((run) => [run.period, run.chunks.length])).toEqual([
      [0, 2],
      [1, 3],
    ]);
    const cutDir = mkdtempSync(join(dir, 'clip-'));
    // Segment 8 (1 s, from its keyframe at 8 s), then 1.5 s of the next period: the 20 s without a push are not in it.
    expect(across.seconds).toBeCloseTo(2.5, 1);
    const file = await cutFromWindow('ffmpeg', across, across.seconds, cutDir);
    const { stdout } = await run('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'format=duration',
      '-of',
      'csv=p=0',
      file,
    ]);
    expect(Number(stdout)).toBeGreaterThan(2.3);
    expect(Number(stdout)).toBeLessThan(2.7);
  });

  it('names its files strictly', () => {
    expect(parseLowLatencyFile('init-2.mp4')).toEqual({ kind: 'init', period: 2 });
    expect(parseLowLatencyFile('part-17.3.m4s')).toEqual({ kind: 'part', msn: 17, index: 3 });
    expect(parseLowLatencyFile('seg-17.m4s')).toEqual({ kind: 'segment', msn: 17 });
    for (const name of ['seg-1.ts', 'part-1.m4s', 'init-.mp4', '../seg-1.m4s', `seg-${'9'.repeat(12)}.m4s`])
      expect(parseLowLatencyFile(name)).toBeNull();
  });
});
