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
 * ffmpeg's arguments for a sheet: reads a fragmented MP4 (an init segment, then one fragment per tile) on stdin,
 * decodes keyframes only (`-skip_frame nokey`: the frames between them are never decoded), scales each to a tile
 * and tiles them COLUMNS × ROWS into one JPEG (a sheet not full is padded at the end).
 */
export function sheetArgs(size: TileSize, out: string): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    '-skip_frame',
    'nokey',
    '-threads',
    '1',
    '-f',
    'mp4',
    '-i',
    'pipe:0',
    '-map',
    '0:v:0',
    '-an',
    '-vf',
    `scale=${size.width}:${size.height},tile=${COLUMNS}x${ROWS}`,
    '-fps_mode',
    'passthrough',
    '-frames:v',
    '1',
    '-q:v',
    '5',
    '-f',
    'image2',
    '-y',
    out,
  ];
}

/** Makes the sheet `out` from `input` (init + fragments); replaces the file whole once it is written. */
export async function renderSheet(ffmpeg: string, input: Buffer, size: TileSize, out: string): Promise<void> {
  const partial = `${out}.part.jpg`;
  try {
    await run(ffmpeg, sheetArgs(size, partial), input);
    await rename(partial, out);
  } finally {
    await rm(partial, { force: true });
  }
}

function run(command: string, args: string[], input: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), SHEET_TIMEOUT_MS);
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 4000) err += chunk.toString();
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`ffmpeg failed (${code ?? signal}): ${lastLine(err)}`));
    });
  });
}
