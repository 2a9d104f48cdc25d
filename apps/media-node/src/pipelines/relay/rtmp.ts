import { randomBytes } from 'node:crypto';
import { mkdir, unlink, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type { AddressPolicy } from '@streamcloud/net-guard';
import { connectFailure, connectOutbound, type OutboundConnection } from './outbound.js';
import type { RelaySource, RelayTarget, TargetRun } from './target.js';
import { asFailure, copyTracks, ffmpegEnded, RelayFailure, relayFfmpeg } from './target.js';

/** A destination that closes the connection this soon after the publish most likely refused the stream key. */
const REFUSED_WITHIN_MS = 5000;
/** How long a stopping run waits for ffmpeg to end the publish cleanly before cutting the connection. */
const CLOSE_GRACE_MS = 1000;

/** The RTMP application, stream name and tcUrl a relay publishes with, split as OBS does. */
export interface RtmpEndpoint {
  tls: boolean;
  host: string;
  port: number;
  app: string;
  playpath: string;
  tcUrl: string;
}

/**
 * Reads a relay's server and key: the server is `rtmp(s)://host[:port]/app[/instance…]`, the key the
 * stream name. Without a key, the server's last path segment is the stream name (a full publish URL).
 */
export function rtmpEndpoint(server: string, key: string | null): RtmpEndpoint {
  const url = new URL(server);
  const tls = url.protocol.toLowerCase() === 'rtmps:';
  const path = `${decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '')}${url.search}`;
  let app = path;
  let playpath = key ?? '';
  if (!playpath) {
    const cut = path.lastIndexOf('/');
    if (cut < 0)
      throw new RelayFailure('there is no stream key: set one, or end the server URL with the stream name', 'fatal');
    app = path.slice(0, cut);
    playpath = path.slice(cut + 1);
  }
  // The preset file ffmpeg reads them from is line-based.
  if ([...playpath].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f))
    throw new RelayFailure('the stream key contains a control character', 'fatal');
  const port = url.port ? Number(url.port) : tls ? 443 : 1935;
  return {
    tls,
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port,
    app,
    playpath,
    tcUrl: `${url.protocol}//${url.host}/${app}`,
  };
}

/**
 * RTMP and RTMPS: ffmpeg publishes (FLV, tracks copied) to a one-connection loopback listener of the node,
 * and the node carries that connection to the destination (TLS for RTMPS, with the certificate verified),
 * counting the bytes on the wire. The stream key never appears on a command line: ffmpeg reads the
 * application, stream name and tcUrl from a preset file (mode 0600 in the node's private directory) that
 * is deleted as soon as ffmpeg connects.
 */
export class RtmpTarget implements RelayTarget {
  readonly label: string;
  readonly needsTracks = false;
  /** FLV carries one video and one audio track. */
  readonly perType = 1;

  constructor(
    private readonly output: { server: string; key: string | null },
    private readonly secretsDir: string,
    private readonly policy: AddressPolicy,
  ) {
    const url = new URL(output.server);
    this.label = `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  }

  run(source: RelaySource, flowing: () => void): TargetRun {
    return new RtmpRun(source, this.output, this.secretsDir, this.policy, flowing);
  }
}

class RtmpRun implements TargetRun {
  readonly ended: Promise<RelayFailure | null>;
  private finish!: (failure: RelayFailure | null) => void;
  private failure: RelayFailure | null = null;
  private server: Server | null = null;
  private local: Socket | null = null;
  private upstream: OutboundConnection | null = null;
  private connectedAt = 0;
  private stopping = false;
  private presetPath: string | null = null;
  private child: ReturnType<typeof relayFfmpeg>['child'] | null = null;

  constructor(
    private readonly source: RelaySource,
    private readonly output: { server: string; key: string | null },
    private readonly secretsDir: string,
    private readonly policy: AddressPolicy,
    private readonly flowing: () => void,
  ) {
    this.ended = new Promise((resolve) => {
      this.finish = resolve;
    });
    this.begin().catch((error: unknown) => this.fail(asFailure(error)));
  }

  bytesOut(): number {
    return this.upstream?.bytesOut() ?? 0;
  }

  bytesIn(): number {
    return this.upstream?.bytesIn() ?? 0;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.teardown(true);
    await this.ended;
  }

  /**
   * Starts ffmpeg publishing to a loopback listener; once it connects (it read the source: its probe is over), the
   * destination is connected and the two joined. A run whose source cannot be read yet (a young push, retried
   * every 250 ms) so never touches the destination: connecting first opened and dropped a connection there at each
   * retry, which a platform's ingest may take for abuse (found by the chaos run).
   */
  private async begin(): Promise<void> {
    const endpoint = rtmpEndpoint(this.output.server, this.output.key);
    const server = createServer((socket) => {
      this.connected(socket, endpoint).catch((error: unknown) => this.fail(asFailure(error)));
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as { port: number };
    await mkdir(this.secretsDir, { recursive: true, mode: 0o700 });
    this.presetPath = join(this.secretsDir, `${randomBytes(9).toString('hex')}.ffpreset`);
    await writeFile(
      this.presetPath,
      `rtmp_app=${endpoint.app}\nrtmp_playpath=${endpoint.playpath}\nrtmp_tcurl=${endpoint.tcUrl}\n`,
      { mode: 0o600, flag: 'wx' },
    );
    if (this.stopping || this.failure) return this.teardown(this.failure === null);
    const { child, log } = relayFfmpeg(
      this.source,
      [
        ...copyTracks(this.source.tracks),
        '-fpre',
        this.presetPath,
        '-f',
        'flv',
        '-flvflags',
        'no_duration_filesize',
        `rtmp://127.0.0.1:${port}/relay`,
      ],
      { secrets: [endpoint.playpath] },
    );
    this.child = child;
    void child.exited.then((code) => {
      const refused = /Server error: (.*)/.exec(log.last());
      this.fail(
        refused && this.local
          ? new RelayFailure(`the destination refused the stream: ${refused[1]}`, 'fatal')
          : ffmpegEnded(code, log, this.local !== null),
      );
    });
  }

  /**
   * ffmpeg connected: the destination is connected (what ffmpeg sends meanwhile waits), then the two connections
   * are joined. A destination that closes soon after most likely refused the stream key.
   */
  private async connected(local: Socket, endpoint: RtmpEndpoint): Promise<void> {
    if (this.local || this.stopping) {
      local.destroy();
      return;
    }
    this.local = local;
    this.server?.close();
    this.removePreset();
    local.on('error', () => undefined);
    local.pause();
    const where = `${endpoint.host}:${endpoint.port}`;
    const upstream = await connectOutbound(endpoint, this.policy);
    if (this.stopping || this.failure || local.destroyed) {
      upstream.socket.destroy();
      return;
    }
    this.upstream = upstream;
    this.connectedAt = Date.now();
    upstream.socket.on('error', (error) => this.fail(connectFailure(error, where)));
    upstream.socket.on('close', () => {
      if (this.stopping || local.destroyed) return;
      const soon = Date.now() - this.connectedAt < REFUSED_WITHIN_MS;
      this.fail(
        new RelayFailure(
          soon
            ? `${where} closed the connection right after it opened (is the stream key right?)`
            : `${where} closed the connection`,
          'target',
        ),
      );
    });
    // ffmpeg ending its publish (the push ended, or a stop) ends the connection to the destination.
    local.on('close', () => upstream.socket.end());
    local.pipe(upstream.socket);
    upstream.socket.pipe(local);
    this.flowing();
  }

  /** The first failure (or clean end) wins; everything is torn down and the run ends when ffmpeg has. */
  private fail(failure: RelayFailure | null): void {
    if (this.failure === null && failure !== null && !this.stopping) this.failure = failure;
    this.teardown(this.failure === null);
    void (this.child?.exited ?? Promise.resolve()).then(() => this.finish(this.stopping ? null : this.failure));
  }

  /**
   * Ends ffmpeg and the connections. Gracefully: ffmpeg (TERM) ends its publish and closes its side,
   * which ends the destination's connection once what it sent has gone; cut after CLOSE_GRACE_MS.
   */
  private teardown(graceful: boolean): void {
    this.removePreset();
    this.server?.close();
    void this.child?.stop();
    const sockets = [this.local, this.upstream?.socket];
    if (!graceful) {
      for (const socket of sockets) socket?.destroy();
      return;
    }
    if (!this.upstream) this.local?.destroy();
    setTimeout(() => {
      for (const socket of sockets) socket?.destroy();
    }, CLOSE_GRACE_MS).unref();
  }

  private removePreset(): void {
    if (!this.presetPath) return;
    void unlink(this.presetPath).catch(() => undefined);
    this.presetPath = null;
  }
}
