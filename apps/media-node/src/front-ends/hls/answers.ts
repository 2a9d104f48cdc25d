import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { text } from '../../http-answer.js';
import type { HlsViewer } from './sessions.js';

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

/** A fragment file, its bytes counted to the viewer's session (`count`: HlsSessions.countTo). */
export async function sendFragment(
  response: ServerResponse,
  fragment: string,
  count: (bytes: number) => void,
): Promise<void> {
  let size: number;
  try {
    size = (await stat(fragment)).size;
  } catch {
    return text(response, 404, 'No such fragment');
  }
  response.writeHead(200, {
    'content-type': 'video/mp2t',
    'content-length': size,
    'cache-control': 'max-age=60',
  });
  const reader = createReadStream(fragment);
  reader.on('data', (chunk) => count(chunk.length));
  reader.on('error', () => response.destroy());
  reader.pipe(response);
}
