import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import type { TrackInfo } from '@streamcloud/contract';
import { type GuardedChild, lastLine, spawnGuarded } from '../../child.js';
import type { Logger } from '../../log.js';

export interface NginxOptions {
  nginx: string;
  rtmpModule: string;
  dataDir: string;
  /** Loopback port nginx-rtmp listens on; only the node's RTMP proxy and its own relays reach it. */
  rtmpPort: number;
  /** Base URL of the publish/play callbacks (the node's control API, loopback, with a secret path). */
  hookBaseUrl: string;
  /** HLS fragment length in seconds (cut at the publisher's keyframes). */
  hlsFragmentSeconds: number;
}

export const RTMP_APP = 'live';

/** How long a player of a stream with both kinds of track (or tracks not known) may probe it: until the video came. */
const BOTH_TRACKS_PROBE_US = 10_000_000;
/** How long a player of a one-track stream probes it: nothing else will come. */
const ONE_TRACK_PROBE_US = 500_000;

/**
 * How long ffmpeg may probe what one of the node's players of nginx-rtmp reads (or what such a player passes on,
 * as the recorder's writer reads its reader's MPEG-TS), given the tracks it carries (null or empty: not known):
 * with both kinds the first packets are audio, up to a GOP of it, before the video's first keyframe (nginx's
 * `wait_video off`); a probe that stops at half a second finds no video parameters, so it may run until they
 * came (it ends once every track's parameters are known). One kind: nothing else will come.
 */
export function playProbeUs(tracks: readonly TrackInfo[] | null): number {
  const kinds = new Set(tracks?.map((track) => track.type));
  return kinds.size === 1 ? ONE_TRACK_PROBE_US : BOTH_TRACKS_PROBE_US;
}

/**
 * ffmpeg's input arguments for one of the node's own players of nginx-rtmp (`url`: `tools.rtmpUrl(name)`), given
 * the tracks of what it plays (null or empty: not known yet). nginx sends a new player audio at once and video
 * from the push's next keyframe (`wait_video off`, docs/decisions.md, "Audio-only pushes"); ffmpeg maps only the
 * tracks its probe found, so with both kinds (or unknown ones) the probe may last BOTH_TRACKS_PROBE_US and ends
 * once every track's parameters are known — at that keyframe, a few frames in (`-fpsprobesize 0`: the frame
 * rate is the publisher's, not counted over 20 frames). A one-track stream's probe is short: it waits for
 * nothing. Unknown tracks of a one-track stream cost the whole bound before the player starts (none is lost:
 * ffmpeg keeps what it probed).
 */
export function playInputArgs(url: string, tracks: readonly TrackInfo[] | null): string[] {
  return ['-rtmp_live', 'live', '-analyzeduration', String(playProbeUs(tracks)), '-fpsprobesize', '0', '-i', url];
}

/**
 * nginx with Debian's libnginx-mod-rtmp: the RTMP server behind the node's RTMP proxy. It asks the node
 * before every publish and play (HTTP callbacks; a 3xx renames the stream, anything but 2xx/3xx refuses),
 * tells it when they end, and packages every published stream as HLS under `<dataDir>/hls/<raw name>/`.
 */
export class NginxRtmp {
  private child: GuardedChild | null = null;
  readonly hlsDir: string;
  private stderr = '';

  constructor(
    private readonly options: NginxOptions,
    private readonly log: Logger,
  ) {
    this.hlsDir = join(options.dataDir, 'hls');
  }

  static available(options: Pick<NginxOptions, 'nginx' | 'rtmpModule'>): string | null {
    if (!existsSync(options.nginx)) return `${options.nginx} is missing (Debian package nginx-light)`;
    if (!existsSync(options.rtmpModule)) return `${options.rtmpModule} is missing (Debian package libnginx-mod-rtmp)`;
    return null;
  }

  async start(): Promise<void> {
    const { dataDir } = this.options;
    await mkdir(join(dataDir, 'nginx'), { recursive: true });
    await mkdir(this.hlsDir, { recursive: true });
    const confPath = join(dataDir, 'nginx', 'nginx.conf');
    await writeFile(confPath, this.config());
    const child = spawnGuarded(this.options.nginx, [
      '-e',
      join(dataDir, 'nginx', 'error.log'),
      '-p',
      join(dataDir, 'nginx'),
      '-c',
      confPath,
    ]);
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-4000);
    });
    this.child = child;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (!child.running) throw new Error(`nginx did not start: ${lastLine(this.stderr) || 'it exited'}`);
      if (await canConnect(this.options.rtmpPort)) {
        void child.exited.then((code) => {
          if (this.child === child) this.log.error(`nginx exited (${code}): ${lastLine(this.stderr)}`);
        });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await child.stop();
    throw new Error('nginx did not listen within 10 s');
  }

  get running(): boolean {
    return this.child?.running ?? false;
  }

  get pid(): number | undefined {
    return this.child?.process.pid;
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    await child?.stop();
  }

  private config(): string {
    const { dataDir, rtmpPort, hookBaseUrl, hlsFragmentSeconds, rtmpModule } = this.options;
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    return `# Written by the media node at every start; do not edit.
load_module ${rtmpModule};
${isRoot ? 'user root;' : ''}
worker_processes 1;
daemon off;
pid ${join(dataDir, 'nginx', 'nginx.pid')};
error_log ${join(dataDir, 'nginx', 'error.log')} warn;
events { worker_connections 4096; }
rtmp {
  server {
    listen 127.0.0.1:${rtmpPort};
    chunk_size 4096;
    ping 10s;
    ping_timeout 10s;
    application ${RTMP_APP} {
      live on;
      # Players may join only a stream that is being published, and leave when it ends.
      idle_streams off;
      # A publisher that sends no media for 10 s is dropped.
      drop_idle_publisher 10s;
      # A player starts at a keyframe; its audio is not held until video comes (wait_video off): an audio-only
      # push reaches its players at all. The node's own players probe until the video came (playInputArgs).
      wait_key on;
      wait_video off;
      notify_method post;
      on_publish ${hookBaseUrl}/publish;
      on_publish_done ${hookBaseUrl}/publish_done;
      on_play ${hookBaseUrl}/play;
      on_play_done ${hookBaseUrl}/play_done;
      hls on;
      hls_path ${this.hlsDir};
      hls_nested on;
      hls_fragment ${hlsFragmentSeconds}s;
      hls_playlist_length ${hlsFragmentSeconds * 6}s;
      # Fragments are named by the wall-clock time (ms) they start at: the node's playlists give each its
      # EXT-X-PROGRAM-DATE-TIME. The node deletes them itself, so they outlive a push's reconnect grace.
      hls_fragment_naming system;
      hls_cleanup off;
    }
  }
}
`;
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
