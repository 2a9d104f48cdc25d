import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  clipCues,
  INTERVAL_SELECT,
  parseSheetFile,
  renderVtt,
  sheetFile,
  TILE_WIDTH,
  tileSize,
  VTT_FILE,
} from './layout.js';
import { keyframeSheetArgs, runFfmpeg } from './sheet.js';

/** A showinfo line of a kept keyframe: its time and the picture's size. */
const SHOWINFO = /pts_time:\s*(-?[\d.]+)[^\n]*?\ss:(\d+)x(\d+)/g;
/** showinfo writes a few hundred characters per frame: a 10-minute clip's 300 tiles fit well within this. */
const LOG_KEPT = 1024 * 1024;

/**
 * A clip's storyboard (docs/decisions.md, "Storyboards (issue 35)"), made from the clip's own file when it is cut (in
 * `<parent>/storyboard/`): one ffmpeg decodes its keyframes only, keeps one per INTERVAL_SECONDS (`select`), says their times
 * (`showinfo`) and tiles them on sheets like a window's (`storyboard-<n>.jpg`, the same layout), then the VTT on the
 * clip's timeline from 0 (`storyboard.vtt`). Answers the files made, the VTT last.
 */
export async function makeClipStoryboard(
  ffmpeg: string,
  clip: string,
  duration: number,
  parent: string,
): Promise<string[]> {
  const dir = join(parent, 'storyboard');
  await mkdir(dir, { recursive: true });
  const log = await runFfmpeg(
    ffmpeg,
    keyframeSheetArgs({
      input: ['-i', clip],
      select: INTERVAL_SELECT,
      // The height of tileSize(): TILE_WIDTH wide, even, of the picture's aspect.
      scale: `${TILE_WIDTH}:'2*round(${TILE_WIDTH / 2}*ih/iw)'`,
      out: join(dir, 'storyboard-%d.jpg'),
      loglevel: 'info',
    }),
    null,
    LOG_KEPT,
  );
  const frames = [...log.matchAll(SHOWINFO)].map((match) => ({
    time: Number(match[1]),
    width: Number(match[2]),
    height: Number(match[3]),
  }));
  const first = frames[0];
  if (!first) throw new Error('the clip has no keyframe');
  const cues = clipCues(
    frames.map((frame) => frame.time - first.time),
    duration,
    tileSize(first.width, first.height),
  );
  const sheets = (await readdir(dir)).filter((name) => parseSheetFile(name) !== null);
  const expected = (cues.at(-1)?.sheet ?? 0) + 1;
  if (sheets.length !== expected) throw new Error(`${sheets.length} sheets made for ${expected}`);
  await writeFile(join(dir, VTT_FILE), renderVtt(cues));
  return [...Array.from({ length: expected }, (_, n) => join(dir, sheetFile(n))), join(dir, VTT_FILE)];
}
