import { isIP, isIPv4, connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { type AddressPolicy, addressPolicy, BlockedAddressError, guardedLookup } from '@streamcloud/net-guard';
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

/** What a relay may not reach, in its message: it reads like the control plane's. */
export const blocked = (host: string) =>
  new RelayFailure(
    `${host} cannot be reached from the media node (private, loopback and link-local addresses are refused unless the operator allows private networks)`,
    'fatal',
  );

/** Where relays may connect and send, from the operator's setting (ALLOW_PRIVATE_NETWORKS). */
export interface RelayPolicies {
  /** RTMP and CMAF destinations: public addresses, private and loopback ones too when allowed. */
  connections: AddressPolicy;
  /**
   * UDP destinations: the same, and multicast groups (which net-guard never connects to) when private
   * networks are allowed — a group reaches the local network only, as a private address does.
   */
  datagrams: AddressPolicy;
}

export function relayPolicies(options: { allowPrivate: boolean }): RelayPolicies {
  const connections = addressPolicy(options);
  const multicast = (address: string) => isIPv4(address) && Number(address.split('.')[0]) >> 4 === 0xe;
  return {
    connections,
    datagrams: { allows: (address) => (multicast(address) ? options.allowPrivate : connections.allows(address)) },
  };
}

/**
 * Connects to a destination a user configured: resolves the name (the node's address policy — packages/
 * net-guard — checks every address it resolves to, and the connection goes to the checked one), then TCP
 * (and TLS with the host name for SNI and a verified certificate). Failures are RelayFailures whose text
 * says what went wrong: an unknown or refused host is fatal, a refused or timed-out connection is worth
 * retrying, a bad certificate is fatal.
 */
export async function connectOutbound(destination: Destination, policy: AddressPolicy): Promise<OutboundConnection> {
  const { host, port } = destination;
  const where = `${host}:${port}`;
  if (isIP(host) && !policy.allows(host)) throw blocked(host);
  const address = isIP(host) ? host : await resolve(host, policy);
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

function resolve(host: string, policy: AddressPolicy): Promise<string> {
  return new Promise((done, reject) =>
    guardedLookup(policy)(host, {}, (error, address) =>
      error ? reject(resolveFailure(host, error)) : done(address as string),
    ),
  );
}

function resolveFailure(host: string, error: Error): RelayFailure {
  if (error instanceof BlockedAddressError) return blocked(host);
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOTFOUND' || code === 'ENODATA')
    return new RelayFailure(`the host ${host} was not found (DNS)`, 'fatal');
  return new RelayFailure(`the host ${host} could not be resolved (DNS: ${code ?? String(error)})`, 'target');
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
