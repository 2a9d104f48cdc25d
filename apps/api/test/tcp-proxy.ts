import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a server, which a test cuts (every connection reset, new ones refused:
 * as when the server is killed or the network between goes) and restores on the same port.
 */
export interface TcpProxy {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const serve = () =>
    createServer((client) => {
      const upstream = connect(targetPort, '127.0.0.1');
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
  const listen = (server: Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
    });
  let server = serve();
  const port = await listen(server, 0);
  const stop = async () => {
    for (const socket of sockets) socket.resetAndDestroy();
    await new Promise((resolve) => server.close(resolve));
  };
  return {
    port,
    cut: stop,
    restore: async () => {
      server = serve();
      await listen(server, port);
    },
    close: async () => {
      if (server.listening) await stop();
    },
  };
}
