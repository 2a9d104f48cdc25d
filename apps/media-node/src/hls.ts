import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { StreamManager } from './streams/manager.js';

/** An HLS viewer whose player has not asked for anything this long has left. */
const HLS_SESSION_IDLE_MS = 20_000;
const FILE = /^[\w.-]+\.(ts|m3u8)$/;

interface HlsViewer {
  sessionId: string;
  bytes: number;
  lastSeen: number;
}

/**
 * HLS playback of outputs: `/hls/<output name>/index.m3u8` (the name URL-encoded, `?token=` for a
 * Private stream's output). The first playlist request is redirected to the same URL with a session id
 * (`sid`), which the playlist then carries into every fragment URL, so each viewer is one session with
 * its bytes counted. Files come from nginx-rtmp's HLS directory of the stream's current push.
 */
export class HlsServer {
  private readonly viewers = new Map<string, HlsViewer>();
  /** Sessions cleared from the control plane: their requests get 410 from then on. */
  private readonly kicked = new Set<string>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly manager: StreamManager,
    private readonly hlsDir: string,
  ) {
    this.sweeper = setInterval(() => this.sweep(), 2000);
    this.sweeper.unref();
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  async handle(
    request: IncomingMessage,
    response: ServerResponse,
    segments: string[],
    query: URLSearchParams,
  ): Promise<void> {
    const [rawName, file] = segments;
    if (!rawName || !file || segments.length !== 2 || !FILE.test(file)) return text(response, 404, 'Not found');
    const token = query.get('token');
    const admitted = await this.manager.admission.play('HLS', rawName, token);
    if (!admitted.ok) return text(response, admitted.status, admitted.reason);
    const sid = query.get('sid');
    if (sid && this.kicked.has(sid)) return text(response, 410, 'This session was ended');
    const dir = join(this.hlsDir, admitted.push.outgoing.main.hlsName);
    if (!sid) {
      if (!file.endsWith('.m3u8')) return text(response, 403, 'Open the playlist first');
      const params = new URLSearchParams({
        sid: `hls-${randomBytes(9).toString('base64url')}`,
        ...(token ? { token } : {}),
      });
      response.writeHead(302, { location: `${file}?${params}`, 'cache-control': 'no-store' });
      response.end();
      return;
    }
    if (!/^hls-[\w-]{8,32}$/.test(sid)) return text(response, 400, 'Bad session id');
    let viewer = this.viewers.get(sid);
    // A session the manager ended (its push ended; the player came back) starts again under the same id.
    if (!viewer || !this.manager.viewers.get(sid)) {
      const state: HlsViewer = { sessionId: sid, bytes: 0, lastSeen: Date.now() };
      viewer = state;
      this.viewers.set(sid, state);
      this.manager.viewers.start({
        id: sid,
        inputId: admitted.input.id,
        outputId: admitted.outputId,
        format: 'HLS',
        ipAddress: (request.socket.remoteAddress ?? '').replace(/^::ffff:/, '') || null,
        bytesOut: () => state.bytes,
        bytesIn: () => 0,
        kick: () => {
          this.kicked.add(sid);
          this.viewers.delete(sid);
        },
      });
    }
    viewer.lastSeen = Date.now();
    const path = join(dir, file);
    if (file.endsWith('.m3u8')) {
      let playlist: string;
      try {
        playlist = await readFile(path, 'utf8');
      } catch {
        return text(response, 404, 'The stream has no playlist yet');
      }
      const suffix = `?${new URLSearchParams({ sid: viewer.sessionId, ...(token ? { token } : {}) })}`;
      const body = Buffer.from(
        playlist
          .split('\n')
          .map((line) => (line && !line.startsWith('#') ? `${line.trim()}${suffix}` : line))
          .join('\n'),
      );
      viewer.bytes += body.length;
      response.writeHead(200, {
        'content-type': 'application/vnd.apple.mpegurl',
        'cache-control': 'no-store',
        'content-length': body.length,
        'access-control-allow-origin': '*',
      });
      response.end(body);
      return;
    }
    let size: number;
    try {
      size = (await stat(path)).size;
    } catch {
      return text(response, 404, 'No such fragment');
    }
    response.writeHead(200, {
      'content-type': 'video/mp2t',
      'content-length': size,
      'cache-control': 'max-age=60',
      'access-control-allow-origin': '*',
    });
    const stream = createReadStream(path);
    stream.on('data', (chunk) => {
      const state = this.viewers.get(viewer.sessionId);
      if (state) state.bytes += chunk.length;
    });
    stream.on('error', () => response.destroy());
    stream.pipe(response);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, viewer] of this.viewers) {
      if (now - viewer.lastSeen < HLS_SESSION_IDLE_MS) continue;
      this.viewers.delete(id);
      this.manager.viewers.end(id);
    }
    // Kicked ids are remembered a while only.
    if (this.kicked.size > 10_000) this.kicked.clear();
  }
}

export function text(response: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ message });
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}
