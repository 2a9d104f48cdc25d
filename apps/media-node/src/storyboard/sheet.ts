import { spawn } from 'node:child_process';
import { rename, rm } from 'node:fs/promises';
import { lastLine } from '../child.js';
import { COLUMNS, ROWS, type TileSize } from './layout.js';

/** A sheet of up to 25 small keyframes takes well under a second; past this, ffmpeg is stopped. */
const SHEET_TIMEOUT_MS = 30_000;

/**
 * The first fragment (moof + mdat) of a segment: an LL-HLS segment starts with an independent part, so this holds
 * its keyframe and a fraction of a second more (ffmpeg is given no more than the frames it decodes).
 */
export function firstFragment(segment: Buffer): Buffer {
  let offset = 0;
  while (offset + 8 <= segment.length) {
    const size = segment.readUInt32BE(offset);
    const type = segment.toString('latin1', offset + 4, offset + 8);
    if (size < 8 || offset + size > segment.length) break;
    offset += size;
    if (type === 'mdat') return segment.subarray(0, offset);
  }
  return segment;
}

/**
 * ffmpeg's arguments for sheets of keyframes: reads `input`, decodes keyframes only (`-skip_frame nokey`: the frames
 * between them are never decoded), keeps those `select` picks (all by default), scales each to a tile (`scale`:
 * `<width>:<height>`, numbers or expressions) and tiles them COLUMNS × ROWS into JPEG sheets (the last one not full
 * is padded at the end) — `frames` of them (a window's one sheet), or every one to `out`'s `%d` pattern (a clip's).
 */
export function keyframeSheetArgs(o: {
  input: string[];
  scale: string;
  out: string;
  select?: string;
  frames?: number;
  loglevel?: 'error' | 'info';
}): string[] {
  const filters = [
    ...(o.select ? [`select='${o.select}'`, 'showinfo'] : []),
    `scale=${o.scale}`,
    `tile=${COLUMNS}x${ROWS}`,
  ];
  return [
    ...['-hide_banner', '-nostdin', '-loglevel', o.loglevel ?? 'error'],
    ...['-skip_frame', 'nokey', '-threads', '1', ...o.input],
    ...['-map', '0:v:0', '-an', '-vf', filters.join(','), '-fps_mode', 'passthrough'],
    ...(o.frames ? ['-frames:v', String(o.frames)] : ['-start_number', '0']),
    ...['-q:v', '5', '-f', 'image2', '-y', o.out],
  ];
}

/** A window's sheet: an init segment and one fragment per tile on stdin, all of them tiled into one JPEG. */
export const sheetArgs = (size: TileSize, out: string): string[] =>
  keyframeSheetArgs({ input: ['-f', 'mp4', '-i', 'pipe:0'], scale: `${size.width}:${size.height}`, out, frames: 1 });

/** Makes the sheet `out` from `input` (init + fragments); replaces the file whole once it is written. */
export async function renderSheet(ffmpeg: string, input: Buffer, size: TileSize, out: string): Promise<void> {
  const partial = `${out}.part.jpg`;
  try {
    await runFfmpeg(ffmpeg, sheetArgs(size, partial), input);
    await rename(partial, out);
  } finally {
    await rm(partial, { force: true });
  }
}

/** Runs ffmpeg (`input` on its stdin); answers its log (the last `keepLog` characters), or rejects with its end. */
export function runFfmpeg(command: string, args: string[], input: Buffer | null, keepLog = 4000): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: [input ? 'pipe' : 'ignore', 'ignore', 'pipe'] });
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), SHEET_TIMEOUT_MS);
    child.stderr?.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString()).slice(-keepLog);
    });
    if (child.stdin) {
      child.stdin.on('error', () => undefined);
      child.stdin.end(input);
    }
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(err);
      else reject(new Error(`ffmpeg failed (${code ?? signal}): ${lastLine(err)}`));
    });
  });
}
