import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type ProxiedConnection, RtmpProxy } from './proxy.js';

/**
 * The RTMP relay in front of nginx, with plain sockets on both sides: how a connection ends decides whether
 * a push ended cleanly (Idle) or failed (Error), so a clean close must never read as a failure.
 */
describe('RtmpProxy', () => {
  const open: { proxy: RtmpProxy; upstream: Server }[] = [];
  afterEach(async () => {
    for (const { proxy, upstream } of open.splice(0)) {
      await proxy.close();
      upstream.close();
    }
  });

  /** A proxy in front of an upstream that answers a last word to the client's (as nginx does to an unpublish). */
  async function relay(): Promise<{
    proxy: RtmpProxy;
    port: number;
    reached: Promise<void>;
    received: Promise<string>;
    closed: Promise<ProxiedConnection>;
  }> {
    let resolveReached: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => (resolveReached = resolve));
    let resolveReceived: (text: string) => void = () => undefined;
    const received = new Promise<string>((resolve) => (resolveReceived = resolve));
    const upstream = createServer({ allowHalfOpen: true }, (socket: Socket) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        resolveReached();
        // nginx answers an unpublish at once, while the encoder is already closing.
        if (text.endsWith('deleteStream')) socket.write('NetStream.Unpublish.Success');
      });
      socket.on('error', () => undefined);
      socket.on('end', () => {
        resolveReceived(text);
        socket.end();
      });
    });
    upstream.listen(0, '127.0.0.1');
    await once(upstream, 'listening');
    const address = upstream.address();
    const proxy = new RtmpProxy(typeof address === 'object' && address ? address.port : 0);
    open.push({ proxy, upstream });
    const closed = new Promise<ProxiedConnection>((resolve) => (proxy.onClose = resolve));
    return { proxy, port: await proxy.listen(0, '127.0.0.1'), reached, received, closed };
  }

  /** A client connected to the proxy (an encoder); errors of a socket the test cuts are expected. */
  async function connectClient(port: number): Promise<Socket> {
    const client = createConnection({ port, host: '127.0.0.1' });
    client.on('error', () => undefined);
    await once(client, 'connect');
    return client;
  }

  it('ends cleanly when the client closes its side, though the upstream still answers; its last bytes arrive', async () => {
    const { port, received, closed } = await relay();
    const client = await connectClient(port);
    client.end('deleteStream');
    expect(await received).toBe('deleteStream');
    const connection = await closed;
    expect(connection.error).toBeNull();
    expect(connection.bytesFromClient).toBe('deleteStream'.length);
  });

  it("tells when the client next sends bytes (a publisher's first after its publish command), or that it closed first", async () => {
    const { proxy, port, reached } = await relay();
    const client = await connectClient(port);
    client.write('publish');
    await reached;
    const [connection] = proxy.connections;
    if (!connection) throw new Error('no connection through the proxy');
    // Asked after the publish command went through: only what the client sends from now on answers it.
    const next = connection.nextFromClient();
    const pending = Symbol('pending');
    expect(await Promise.race([next, new Promise((resolve) => setImmediate(() => resolve(pending)))])).toBe(pending);
    client.write('media');
    expect(await next).toBe(true);
    // The client goes before sending anything more: the wait ends, and so does any asked after the close.
    const unanswered = connection.nextFromClient();
    client.end();
    expect(await unanswered).toBe(false);
    expect(await connection.nextFromClient()).toBe(false);
  });

  it('names the failure of a client whose connection is reset mid-stream', async () => {
    const { port, reached, closed } = await relay();
    const client = await connectClient(port);
    client.write('media');
    await reached;
    client.resetAndDestroy();
    expect((await closed).error).toMatch(/ECONNRESET/);
  });

  it("an edge pull's relay counts exactly what the origin's proxy handed it, though its ffmpeg is cut mid-stream", async () => {
    // nginx on the origin: a player that gets media without pause.
    const chunk = Buffer.alloc(16 * 1024, 1);
    const nginx = createServer((socket: Socket) => {
      socket.on('error', () => undefined);
      const send = () => {
        while (!socket.destroyed && socket.writable && socket.write(chunk));
      };
      socket.on('drain', send);
      send();
    });
    nginx.listen(0, '127.0.0.1');
    await once(nginx, 'listening');
    const nginxAddress = nginx.address();
    const origin = new RtmpProxy(typeof nginxAddress === 'object' && nginxAddress ? nginxAddress.port : 0);
    open.push({ proxy: origin, upstream: nginx });
    const originClosed = new Promise<ProxiedConnection>((resolve) => (origin.onClose = resolve));
    const edge = new RtmpProxy(await origin.listen(0, '127.0.0.1'), { host: '127.0.0.1', aliases: false });
    const ffmpeg = createConnection({ port: await edge.listen(0, '127.0.0.1'), host: '127.0.0.1' });
    ffmpeg.on('error', () => undefined);
    let read = 0;
    await new Promise<void>((resolve) =>
      ffmpeg.on('data', (data: Buffer) => {
        read += data.length;
        if (read > 1_000_000) resolve();
      }),
    );
    ffmpeg.resetAndDestroy();
    const [relayed] = edge.connections;
    await edge.close();
    const sent = await originClosed;
    await sent.done;
    expect(relayed?.bytesToClient).toBeGreaterThan(1_000_000);
    expect(relayed?.bytesToClient).toBe(sent.bytesToClient);
  });
});
