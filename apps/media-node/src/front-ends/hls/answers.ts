import type { ServerResponse } from 'node:http';
import { text } from '../../http-answer.js';
import type { HlsViewer } from './sessions.js';
import type { StandardHlsFiles } from './standard-files.js';

/** A playlist to the viewer (its bytes counted to the session), or 404 while there is none yet. */
export function sendPlaylist(response: ServerResponse, viewer: HlsViewer, playlist: string | null): void {
  if (playlist === null) {
    text(response, 404, 'The stream has no playlist yet');
    return;
  }
  const body = Buffer.from(playlist);
  viewer.bytes += body.length;
  response.writeHead(200, {
    'content-type': 'application/vnd.apple.mpegurl',
    'cache-control': 'no-store',
    'content-length': body.length,
  });
  response.end(body);
}

/** A fragment file (read through `files`), its bytes counted to the viewer's session (`count`: HlsSessions.countTo). */
export async function sendFragment(
  response: ServerResponse,
  files: StandardHlsFiles,
  fragment: string,
  count: (bytes: number) => void,
): Promise<void> {
  const body = await files.fragment(fragment);
  if (body === null) return text(response, 404, 'No such fragment');
  response.writeHead(200, {
    'content-type': 'video/mp2t',
    'content-length': body.length,
    'cache-control': 'max-age=60',
  });
  // Billed once the whole body went out: a player that left in the middle did not get it.
  response.once('finish', () => count(body.length));
  response.end(body);
}
