import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { DiskBudget, DvrStore } from '../ll-hls/dvr-store.js';
import { fmp4OutputArgs } from '../ll-hls/files.js';
import { LowLatencyPackager } from '../ll-hls/packager.js';
import { sheetFile } from './layout.js';
import { WindowStoryboard } from './window.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'storyboard-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 60 s of a 320x180 pattern, a keyframe a second, as the packaging ffmpeg writes a push. */
async function encode(): Promise<Buffer> {
  const output = fmp4OutputArgs(0.2).filter((arg, i, all) => arg !== 'copy' && all[i + 1] !== 'copy');
  const { stdout } = await run(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=15'],
      ...['-t', '60', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '15', '-bf', '0', ...output],
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}

/** A JPEG's width and height (its SOF marker). */
function jpegSize(data: Buffer): { width: number; height: number } | null {
  for (let at = 2; at + 9 < data.length; ) {
    const marker = data[at + 1] ?? 0;
    if (marker >= 0xc0 && marker <= 0xc2)
      return { height: data.readUInt16BE(at + 5), width: data.readUInt16BE(at + 7) };
    at += 2 + data.readUInt16BE(at + 2);
  }
  return null;
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 20_000; !check(); await new Promise((resolve) => setTimeout(resolve, 50)))
    if (Date.now() > deadline) throw new Error(`not ${what} within 20 s`);
}

describe("a rewind window's storyboard", () => {
  it('makes full sheets from keyframes as the window stores them, the open one once settled (a VOD takes it), and drops sheets with the window', async () => {
    const windowDir = join(dir, 'window');
    const store = new DvrStore(windowDir, new DiskBudget(1024 ** 3));
    const storyboard = new WindowStoryboard(
      {
        dir: windowDir,
        read: (msn) => store.read(msn),
        init: (period) => readFile(store.initPath(period)).catch(() => null),
      },
      'ffmpeg',
    );
    store.observer = storyboard;
    const packager = new LowLatencyPackager({ partTarget: 0.2, segmentMin: 1, keepSegments: 12, maxBytes: 1 << 26 });
    packager.setDvr({ store, windowSeconds: 600 });
    packager.write(await encode());
    packager.end();
    await store.settled();

    // 60 one-second segments, a tile every 2 s: about 30 tiles, a full sheet of 25 and an open one. Nobody asked
    // for the VTT: only the full sheet is made.
    await until(() => storyboard.sheetsOnDisk().length === 1, 'the full sheet made');
    expect(storyboard.sheetsOnDisk()).toEqual([0]);
    const full = readFileSync(join(windowDir, sheetFile(0)));
    expect(jpegSize(full)).toEqual({ width: 800, height: 450 });
    const { cues } = storyboard.windowCues(() => true);
    expect(cues).toHaveLength(25);
    // A tile every 2 s (the first keyframe at or after it: a frame or a segment late at most).
    for (const [i, cue] of cues.entries())
      if (i > 0) expect(cue.start - (cues[i - 1]?.start ?? 0)).toBeGreaterThan(1.7);
    expect(cues.at(-1)?.start).toBeLessThanOrEqual(24 * 3);

    // Settled (a VOD takes the storyboard): the open sheet is made too.
    await storyboard.settled();
    expect(storyboard.sheetsOnDisk()).toEqual([0, 1]);
    const tiles = storyboard.windowCues(() => true).cues.length;
    expect(tiles).toBeGreaterThan(25);
    const vod = storyboard.vodCues(store.segments());
    expect(vod).toHaveLength(tiles);
    // The VOD's timeline starts at its first segment, which has the first tile: the window tells the storyboard of
    // its segments in their order even when a later one's write ends first (a loaded run wrote the first segment,
    // with its period's init, after the second and its tile went to the second: at 1 s).
    expect(vod[0]?.start).toBe(0);
    expect(vod.at(-1)?.end).toBeCloseTo(
      store.segments().reduce((total, segment) => total + segment.duration, 0),
      3,
    );

    // The window slides: a sheet goes from the disk once its last tile's segment did.
    const lastOfFirst = storyboard.vodCues(store.segments())[24];
    const segments = store.segments();
    let at = 0;
    for (const segment of segments.slice(0, 10)) {
      store.remove(segment.msn);
      at += segment.duration;
    }
    expect(storyboard.sheetsOnDisk()).toEqual([0, 1]);
    // Past the first sheet's last tile: it goes.
    for (const segment of segments.slice(10)) {
      if (at > (lastOfFirst?.start ?? 0) + 0.5) break;
      store.remove(segment.msn);
      at += segment.duration;
    }
    expect(storyboard.sheetsOnDisk()).toEqual([1]);
    await until(() => !existsSync(join(windowDir, sheetFile(0))), 'the first sheet removed');
    storyboard.close();
    await store.clear();
  }, 60_000);
});
