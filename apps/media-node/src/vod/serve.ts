import type { ServerResponse } from 'node:http';
import { text } from '../http-answer.js';
import { sendBody } from '../ll-hls/serve.js';
import { parseSheetFile, VTT_FILE } from '../storyboard/layout.js';
import { SHEET_TYPE, VTT_TYPE } from '../storyboard/serve.js';
import type { VodLibrary } from './library.js';

/**
 * The path segment of an output's VOD: `/hls/<output>/vod/index.m3u8` (and its `init-*.mp4`, `seg-*.m4s`), and its
 * storyboard `vod/storyboard.vtt` (and its `storyboard-*.jpg` sheets).
 */
export const VOD_PATH = 'vod';

/**
 * Serves the VOD of a stream's last session through one of its HLS outputs, inside the viewer's HLS session (the
 * HLS server admitted the player and counts the bytes it sends, billed as the stream's outgoing traffic).
 */
export async function serveVod(
  response: ServerResponse,
  asked: { library: VodLibrary; streamId: string; file: string; suffix: string; count(bytes: number): void },
): Promise<void> {
  const { library, streamId, file } = asked;
  if (file === 'index.m3u8') {
    const playlist = library.playlist(streamId, (uri) => `${uri}${asked.suffix}`);
    if (playlist === null) return text(response, 404, 'The stream has no VOD on this node');
    return sendBody(response, asked, Buffer.from(playlist), 'application/vnd.apple.mpegurl', 'no-store');
  }
  if (file === VTT_FILE) {
    const vtt = library.storyboard(streamId, (uri) => `${uri}${asked.suffix}`);
    if (vtt === null) return text(response, 404, 'The VOD has no storyboard');
    return sendBody(response, asked, Buffer.from(vtt), VTT_TYPE, 'max-age=3600');
  }
  const body = await library.file(streamId, file);
  if (!body) return text(response, 404, 'No such segment in the VOD');
  // A VOD's files never change.
  return sendBody(response, asked, body, parseSheetFile(file) === null ? 'video/mp4' : SHEET_TYPE, 'max-age=3600');
}
