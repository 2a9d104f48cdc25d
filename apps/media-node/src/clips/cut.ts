import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runTool } from '../child.js';
import type { ClipSource } from '../ll-hls/segments.js';

/** A cut of at most 10 minutes of copied tracks takes seconds; past this, ffmpeg is stopped. */
const CUT_TIMEOUT_MS = 60_000;

const QUIET = ['-hide_banner', '-nostdin', '-loglevel', 'error'];

/** ffmpeg's output: the tracks copied into one MP4 with its index first (a player starts before the end). */
const MP4_OUTPUT = ['-map', '0', '-c', 'copy', '-movflags', '+faststart', '-f', 'mp4'];

/**
 * Cuts a clip from the rewind window's segments without re-encoding (docs/decisions.md, "Clips (issue 35)"):
 * each period's run (its init, then its segments: a fragmented MP4) is written to `dir`, and ffmpeg copies the
 * runs (one after the other with the concat demuxer when a reconnect made several) into one MP4 of `seconds`
 * from the first segment's keyframe. Answers the file.
 */
export async function cutFromWindow(ffmpeg: string, source: ClipSource, seconds: number, dir: string): Promise<string> {
  const runs: string[] = [];
  for (const [index, run] of source.runs.entries()) {
    const file = join(dir, `run-${index}.mp4`);
    await writeFile(file, Buffer.concat(run.chunks));
    runs.push(file);
  }
  let input = ['-i', runs[0] ?? ''];
  if (runs.length > 1) {
    // A run's fragments carry the stream's decode times (its segments' place in the period) and no duration the
    // concat demuxer could go by: each is copied into a plain MP4 of its own first, starting at 0.
    const plain: string[] = [];
    for (const [index, run] of runs.entries()) {
      const file = join(dir, `plain-${index}.mp4`);
      await runTool(ffmpeg, [...QUIET, '-i', run, ...MP4_OUTPUT, '-y', file], CUT_TIMEOUT_MS);
      plain.push(file);
    }
    const list = join(dir, 'runs.txt');
    await writeFile(list, plain.map((file) => `file '${file}'\n`).join(''));
    input = ['-f', 'concat', '-safe', '0', '-i', list];
  }
  const out = join(dir, 'clip.mp4');
  await runTool(ffmpeg, [...QUIET, ...input, '-t', seconds.toFixed(3), ...MP4_OUTPUT, '-y', out], CUT_TIMEOUT_MS);
  return out;
}

/**
 * Cuts a clip from a recording's file (served on loopback by `url`, which answers byte ranges) without
 * re-encoding: ffmpeg seeks to the keyframe at or before `from` and copies up to `to`.
 */
export async function cutFromFile(ffmpeg: string, url: string, from: number, to: number, dir: string): Promise<string> {
  const out = join(dir, 'clip.mp4');
  await runTool(
    ffmpeg,
    [...QUIET, '-ss', from.toFixed(3), '-to', to.toFixed(3), '-i', url, ...MP4_OUTPUT, '-y', out],
    CUT_TIMEOUT_MS,
  );
  return out;
}
