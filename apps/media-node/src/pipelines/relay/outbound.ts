import { lookup } from 'node:dns/promises';
import { isIP, connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { RelayFailure } from './target.js';

/** How long a connection to a destination may take (DNS and TLS included). */
const CONNECT_TIMEOUT_MS = 10_000;

/** A connection to a relay's destination, counting the bytes on the wire (TLS included). */
export interface OutboundConnection {
  /** The socket to write to and read from: the TLS socket for TLS, else the TCP socket. */
  readonly socket: Socket;
  bytesOut(): number;
  bytesIn(): number;
}

export interface Destination {
  host: string;
  port: number;
  tls: boolean;
}

/**
 * Connects to a destination a user configured: resolves the name, then TCP (and TLS with the host name
 * for SNI and a verified certificate). Failures are RelayFailures whose text says what went wrong: an
 * unknown host is fatal, a refused or timed-out connection is worth retrying, a bad certificate is fatal.
 */
export async function connectOutbound(destination: Destination): Promise<OutboundConnection> {
  const { host, port } = destination;
  const where = `${host}:${port}`;
  const address = isIP(host) ? host : await resolve(host);
  const raw = await new Promise<Socket>((resolvePromise, reject) => {
    const socket = netConnect({ host: address, port });
    const fail = (error: Error) => {
      socket.destroy();
      reject(connectFailure(error, where));
    };
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => fail(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    socket.once('error', fail);
    socket.once('connect', () => {
      socket.setTimeout(0);
      socket.removeListener('error', fail);
      resolvePromise(socket);
    });
  });
  raw.setNoDelay(true);
  const counting = { bytesOut: () => raw.bytesWritten, bytesIn: () => raw.bytesRead };
  if (!destination.tls) return { socket: raw, ...counting };
  const secure = await new Promise<Socket>((resolvePromise, reject) => {
    // `host` names what the certificate must be for; SNI carries only names, not addresses.
    const socket = tlsConnect({ socket: raw, host, servername: isIP(host) ? undefined : host });
    const fail = (error: Error) => {
      socket.destroy();
      raw.destroy();
      reject(connectFailure(error, where));
    };
    socket.setTimeout(CONNECT_TIMEOUT_MS, () =>
      fail(Object.assign(new Error('TLS handshake timed out'), { code: 'ETIMEDOUT' })),
    );
    socket.once('error', fail);
    socket.once('secureConnect', () => {
      socket.setTimeout(0);
      socket.removeListener('error', fail);
      resolvePromise(socket);
    });
  });
  return { socket: secure, ...counting };
}

async function resolve(host: string): Promise<string> {
  try {
    return (await lookup(host)).address;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA')
      throw new RelayFailure(`the host ${host} was not found (DNS)`, 'fatal');
    throw new RelayFailure(`the host ${host} could not be resolved (DNS: ${code ?? String(error)})`, 'target');
  }
}

/** A connection error as the relay's messages say it. */
export function connectFailure(error: Error, where: string): RelayFailure {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ECONNREFUSED':
      return new RelayFailure(`connection refused by ${where}`, 'target');
    case 'ETIMEDOUT':
      return new RelayFailure(`connecting to ${where} timed out`, 'target');
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new RelayFailure(`${where} is unreachable`, 'target');
    case 'ECONNRESET':
      return new RelayFailure(`the connection to ${where} was reset`, 'target');
    default:
      if (code?.startsWith('ERR_TLS') || code?.includes('CERT') || code === 'DEPTH_ZERO_SELF_SIGNED_CERTIFICATE')
        return new RelayFailure(`the TLS certificate of ${where} is not valid (${error.message})`, 'fatal');
      return new RelayFailure(`connecting to ${where} failed (${error.message})`, 'target');
  }
}
