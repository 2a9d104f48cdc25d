// Issue 35, live to on-demand (`npm run bench -- vod`): on the clips bench's world (a 2.5 Mb/s push, 640x360, a
// keyframe a second, a Low latency output keeping a 10-minute rewind window on a real node; clips.bench.mjs), four
// figures: the CPU the storyboard takes per stream, the console player's seek to first frame (player-seek.mjs), a
// 30 s clip's time to Ready (the clips bench's measure), and the rewind window's disk per hour of the stream (its
// segments, and the storyboard's sheets beside them).
//
// The storyboard's CPU: its ffmpeg runs are short (one per sheet made, a fraction of a second) and a node's tree has
// other short children (probes, snapshots), so the node's own CPU does not tell it apart. The bench runs the node's
// own WindowStoryboard (apps/media-node/src/storyboard/window.ts) over the same window as the node writes it, in real
// time, and counts the CPU of the ffmpeg runs it reaps (this process's cutime + cstime: its only children that end),
// once while a player reads its VTT (as the console's seek bar does) and once while nobody does.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WindowStoryboard } from '../apps/media-node/src/storyboard/window.ts';
import { ensureConsoleBuilt } from '../scripts/lib.mjs';
import { CLIPS_TITLE, clipRows, windowRow, withClippedStream } from './clips.bench.mjs';
import { printTable } from './lib.mjs';
import { sleep } from './media-lib.mjs';
import { SEEK_TITLE, seekRows } from './player-seek.mjs';

const SECONDS = Number(process.env.BENCH_VOD_SECONDS ?? 60);
const TICKS_PER_SECOND = 100;

/** CPU seconds of the children this process has reaped (Linux /proc). */
function reapedChildrenSeconds() {
  const text = readFileSync(`/proc/${process.pid}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
}

/** The node's window folder of the stream (its one variant) and the segments its index names so far. */
function indexed(dir) {
  return readFileSync(join(dir, 'index.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** Bytes of the files in `dir` whose name passes `keep`. */
function bytesOf(dir, keep) {
  let bytes = 0;
  for (const name of readdirSync(dir)) if (keep(name)) bytes += statSync(join(dir, name)).size;
  return bytes;
}

/**
 * Runs a storyboard over the node's window as it grows, SECONDS long: its ffmpeg CPU and the sheets it made. `watched`:
 * its VTT is read every 5 s, as the console's seek bar does (the open sheet follows the window).
 */
async function storyboardCpu(windowDir, watched) {
  const sheets = mkdtempSync(join(tmpdir(), 'streamcloud-vod-bench-sheets-'));
  const storyboard = new WindowStoryboard(
    {
      dir: sheets,
      read: (msn) => readFile(join(windowDir, `seg-${msn}.m4s`)).catch(() => null),
      init: (period) => readFile(join(windowDir, `init-${period}.mp4`)).catch(() => null),
    },
    'ffmpeg',
    (message) => process.stderr.write(`vod bench: ${message}\n`),
  );
  try {
    // From now on, as the node stores them (what is already there would be a catch-up, not the steady cost).
    let seen = Math.max(-1, ...indexed(windowDir).map((segment) => segment.msn));
    const before = reapedChildrenSeconds();
    const started = Date.now();
    let askedAt = 0;
    while (Date.now() - started < SECONDS * 1000) {
      if (watched && Date.now() - askedAt >= 5000) {
        askedAt = Date.now();
        storyboard.asked();
      }
      for (const segment of indexed(windowDir))
        if (segment.msn > seen) {
          seen = segment.msn;
          storyboard.stored(segment);
        }
      await sleep(250);
    }
    await storyboard.settled();
    const cpuSeconds = reapedChildrenSeconds() - before;
    const elapsed = (Date.now() - started) / 1000;
    return {
      'VTT read': watched ? 'every 5 s' : 'never',
      'seconds of the stream': elapsed.toFixed(0),
      'ffmpeg CPU, s': cpuSeconds.toFixed(2),
      'storyboard CPU, % of a core per stream': ((cpuSeconds / elapsed) * 100).toFixed(2),
      'sheets on disk': storyboard.sheetsOnDisk().length,
    };
  } finally {
    storyboard.close();
    rmSync(sheets, { recursive: true, force: true });
  }
}

export default async function vodBench() {
  ensureConsoleBuilt();
  await withClippedStream(async ({ api, base, stream, rewind, storage, dataDir }) => {
    const windowDir = join(dataDir, 'dvr', stream.id, 'main');
    const rows = [await storyboardCpu(windowDir, true), await storyboardCpu(windowDir, false)];
    // The window is two minutes long by now: room to seek a minute back.
    printTable(SEEK_TITLE, await seekRows(base, stream, rewind));
    printTable(
      `The storyboard of a 2.5 Mb/s 640x360 stream's rewind window (a 160x90 tile every 2 s, 5x5 sheets, keyframes ` +
        `only; the open sheet made again at most every 10 s while its VTT is read, else full sheets only), ` +
        `${SECONDS} s each in real time`,
      rows,
    );
    printTable(CLIPS_TITLE, await clipRows(api, stream, storage));
    const window = windowRow(dataDir);
    const sheetBytes = bytesOf(windowDir, (name) => name.startsWith('storyboard-'));
    printTable('The rewind window on the node’s disk (segments), and its storyboard’s sheets', [
      {
        ...window,
        'storyboard MB per hour': (((sheetBytes / Number(window['seconds kept'])) * 3600) / 1e6).toFixed(1),
      },
    ]);
  });
}
