import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { RtmpPlayReader } from './play-reader.js';

/** One client connection through the proxy. */
export interface ProxiedConnection {
  id: number;
  /** The client's own address (nginx sees only the loopback alias below). */
  remoteAddress: string;
  /** The unique loopback address the proxy connects to nginx from: nginx's callbacks name it as `addr`. */
  alias: string;
  /** Bytes the client sent (upload) and received (download), counted at the TCP payload level. */
  bytesFromClient: number;
  bytesToClient: number;
  openedAt: number;
  closed: boolean;
  /** How the connection ended: null while open or after a clean close. */
  error: string | null;
  /**
   * The stream name (with its `?query`) of the client's `play` command as it sent it, whole (nginx-rtmp cuts it
   * at 255 bytes: play-reader.ts); null before one, and on an edge pull's relay.
   */
  readonly playName: string | null;
  /** Cuts both sides at once (a kicked client). */
  close(): void;
  /**
   * Resolves true once the client sends bytes after this call (they reached the upstream), false when the
   * connection closes first: e.g. asked when nginx's publish hook is called, the publisher's first bytes
   * after its publish command (an encoder sends nothing more until nginx's NetStream.Publish.Start).
   */
  nextFromClient(): Promise<boolean>;
  /** Resolves once both sides are closed. */
  done: Promise<void>;
}

/**
 * The node's public RTMP port: a byte-counting TCP relay in front of nginx-rtmp (which listens on
 * loopback only). Each client connection reaches nginx from its own loopback address (127.77.x.y,
 * Linux routes all of 127/8 to the loopback interface), so nginx's publish/play callbacks, which carry
 * the peer address, name the exact connection: the node learns the client's real address, counts its
 * bytes exactly (billing), and disconnects it by closing the socket. The relay never reads RTMP.
 * As an edge pull's relay, the remote peer is upstream (the origin node): every byte received from it is
 * counted, also once ffmpeg is gone, and the relay reads on until the origin closed (its `close()` drains),
 * so the edge counts exactly what the origin counted as handed to it: internode bytes equal on both nodes.
 */
export class RtmpProxy {
  private server: Server | null = null;
  private nextId = 0;
  private readonly byAlias = new Map<string, ProxiedConnection>();
  onClose: (connection: ProxiedConnection) => void = () => undefined;

  /**
   * `upstream`: nginx on loopback (the node's public RTMP port; each connection from its own alias), or
   * another node's RTMP port (an edge pull's counting relay: `aliases` false, the connection is counted only).
   */
  constructor(
    private readonly upstreamPort: number,
    private readonly upstream: { host: string; aliases: boolean } = { host: '127.0.0.1', aliases: true },
  ) {}

  listen(port: number, host: string): Promise<number> {
    const server = createServer((socket) => this.accept(socket));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  byAddress(alias: string): ProxiedConnection | undefined {
    return this.byAlias.get(alias);
  }

  get connections(): ProxiedConnection[] {
    return [...this.byAlias.values()];
  }

  /** Stops listening and closes the connections: cut, or (an edge pull's relay) ended and drained. */
  async close(): Promise<void> {
    const open = [...this.byAlias.values()];
    for (const connection of open) {
      if (this.peerUpstream) this.ends.get(connection)?.();
      else connection.close();
    }
    await Promise.all([
      ...open.map((connection) => connection.done),
      new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve())),
    ]);
  }

  /** Whether the remote peer is upstream (an edge pull's relay to the origin) rather than the client. */
  private get peerUpstream(): boolean {
    return !this.upstream.aliases;
  }

  /** How each open connection is ended cleanly. */
  private readonly ends = new WeakMap<ProxiedConnection, () => void>();

  private freeAlias(): string {
    for (let attempt = 0; attempt < 65_536; attempt++) {
      const n = this.nextId++ % 65_024;
      const alias = `127.77.${2 + Math.floor(n / 254)}.${1 + (n % 254)}`;
      if (!this.byAlias.has(alias)) return alias;
    }
    throw new Error('no free loopback alias');
  }

  private accept(client: Socket): void {
    const alias = this.freeAlias();
    const upstream = createConnection({
      host: this.upstream.host,
      port: this.upstreamPort,
      ...(this.upstream.aliases ? { localAddress: alias } : {}),
    });
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    let openSides = 2;
    let allClosed: () => void = () => undefined;
    const done = new Promise<void>((resolve) => {
      allClosed = resolve;
    });
    let waitingForClient: Array<(sent: boolean) => void> = [];
    const clientSent = (sent: boolean) => {
      const waiting = waitingForClient;
      waitingForClient = [];
      for (const resolve of waiting) resolve(sent);
    };
    const commands = this.peerUpstream ? null : new RtmpPlayReader();
    const connection: ProxiedConnection = {
      get playName() {
        return commands?.playName ?? null;
      },
      id: this.nextId,
      remoteAddress: (client.remoteAddress ?? '').replace(/^::ffff:/, ''),
      alias,
      bytesFromClient: 0,
      bytesToClient: 0,
      openedAt: Date.now(),
      closed: false,
      error: null,
      close: () => {
        client.destroy();
        upstream.destroy();
      },
      nextFromClient: () =>
        connection.closed ? Promise.resolve(false) : new Promise((resolve) => waitingForClient.push(resolve)),
      done,
    };
    this.byAlias.set(alias, connection);
    // A side that closed its half (FIN) ended cleanly: e.g. an encoder at the end of its push, which nginx
    // may still answer (its unpublish status) a moment after. Writing to it then fails ("ended by the other
    // party", or a reset from its kernel): that is the end of a clean close, not a failure of the push.
    let endedCleanly = false;
    const peerUpstream = this.peerUpstream;
    const finish = (error?: Error) => {
      if (error && !endedCleanly && !connection.error && !connection.closed) connection.error = error.message;
      if (connection.closed) return;
      connection.closed = true;
      clientSent(false);
      if (error && !peerUpstream) {
        client.destroy();
        upstream.destroy();
      } else {
        // An edge pull's relay whose ffmpeg failed still reads what the origin already sent.
        if (error) client.destroy();
        // Let what the closing side sent last (e.g. RTMP deleteStream) reach the other before it closes; a
        // side held back for the other (backpressure) reads on.
        client.end();
        upstream.end();
        client.resume();
        upstream.resume();
        setTimeout(() => {
          client.destroy();
          upstream.destroy();
        }, 5000).unref();
      }
      // The alias stays taken a moment so late callbacks still find the connection.
      setTimeout(() => this.byAlias.delete(alias), 10_000).unref();
      this.onClose(connection);
    };
    this.ends.set(connection, () => finish());
    /** `fromPeer`: what `from` sends is received from the remote peer, counted whether or not it can be passed on. */
    const relay = (from: Socket, to: Socket, fromPeer: boolean, count: (bytes: number) => void) => {
      from.on('data', (chunk: Buffer) => {
        // What can no longer reach a side that closed is not relayed, nor counted as sent to the peer.
        // A side whose peer sent FIN is ended by Node a tick later (allowHalfOpen off): nothing passes to it then.
        const passes = to.writable && !to.readableEnded;
        if (passes || fromPeer) count(chunk.length);
        if (passes && !to.write(chunk)) from.pause();
      });
      to.on('drain', () => from.resume());
      from.on('end', () => {
        endedCleanly = true;
        to.end();
        // Held back for `from` (backpressure), `to` reads on: its last bytes and its end.
        to.resume();
      });
      from.on('error', finish);
      from.on('close', () => {
        if (--openSides === 0) allClosed();
        finish();
      });
    };
    // Read before the relay passes them on (listeners run in order): nginx's play callback finds the name here.
    if (commands) client.on('data', (chunk: Buffer) => commands.push(chunk));
    relay(client, upstream, false, (bytes) => {
      connection.bytesFromClient += bytes;
      clientSent(true);
    });
    relay(upstream, client, peerUpstream, (bytes) => {
      connection.bytesToClient += bytes;
    });
  }
}
