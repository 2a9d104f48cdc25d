import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { text } from '../http-answer.js';
import type { LowLatencyPackager } from '../ll-hls/packager.js';
import { sendBody } from '../ll-hls/serve.js';
import { parseSheetFile, renderVtt, VTT_FILE } from './layout.js';
import type { WindowStoryboard } from './window.js';

export const VTT_TYPE = 'text/vtt; charset=utf-8';
export const SHEET_TYPE = 'image/jpeg';

/**
 * Serves a rewind window's storyboard through one of its Low latency outputs (`/hls/<output>/storyboard.vtt` and its
 * sheets), inside the viewer's HLS session (admitted, its bytes counted) as the playlist is: the VTT lists the tiles of
 * the output's own window (`windowSeconds`), on the program-date timeline its header names.
 */
export async function serveWindowStoryboard(
  response: ServerResponse,
  asked: {
    found: { storyboard: WindowStoryboard; packager: LowLatencyPackager } | null;
    file: string;
    suffix: string;
    windowSeconds: number;
    count(bytes: number): void;
  },
): Promise<void> {
  const { found, file } = asked;
  if (!found || asked.windowSeconds <= 0) return text(response, 404, 'This output keeps no rewind window');
  const listed = (msn: number) => found.packager.lists(msn, asked.windowSeconds);
  if (file === VTT_FILE) {
    found.storyboard.asked();
    const { cues, programDate } = found.storyboard.windowCues(listed);
    const vtt = renderVtt(cues, { uri: (name) => `${name}${asked.suffix}`, programDate });
    // It grows with the window: read again as often as a player wants thumbnails of the newest part.
    return sendBody(response, asked, Buffer.from(vtt), VTT_TYPE, 'no-store');
  }
  const sheet = parseSheetFile(file);
  const path = sheet === null ? null : found.storyboard.sheetPath(sheet, listed);
  const body = path ? await readFile(path).catch(() => null) : null;
  if (!body) return text(response, 404, 'No such storyboard sheet');
  // The newest sheet is made again as tiles come: kept briefly.
  return sendBody(response, asked, body, SHEET_TYPE, 'max-age=2');
}
