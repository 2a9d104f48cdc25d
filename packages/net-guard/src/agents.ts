import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { Agent as HttpAgent, type AgentOptions as HttpAgentOptions } from 'node:http';
import { Agent as HttpsAgent, type AgentOptions as HttpsAgentOptions } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';
import type { AddressPolicy } from './address.js';

/** A connection the policy refused. Callers describe it exactly as a host that cannot be reached. */
export class BlockedAddressError extends Error {
  readonly code = 'ERR_ADDRESS_BLOCKED';

  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`Connecting to ${host} (${address}) is not allowed`);
    this.name = 'BlockedAddressError';
  }
}

/** Resolves a name to all its addresses (dns.lookup; tests give their own). */
export type Resolve = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A DNS lookup that refuses a name when any address it resolves to is not allowed. It runs when the
 * socket connects and the socket connects to exactly what it answered, so a name that resolves to a
 * public address when checked and a private one when used (DNS rebinding) cannot slip through.
 */
export function guardedLookup(policy: AddressPolicy, resolve: Resolve = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    const all: LookupAllOptions = { ...options, all: true };
    resolve(hostname, all, (error, addresses) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const refused = addresses.find((entry) => !policy.allows(entry.address));
      if (refused || addresses.length === 0) {
        callback(new BlockedAddressError(hostname, refused?.address ?? 'no address'), '', 0);
        return;
      }
      if (options.all) (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
      else callback(null, addresses[0]?.address ?? '', addresses[0]?.family ?? 4);
    });
  };
}

interface ConnectTarget {
  host?: string | null;
  hostname?: string | null;
  socketPath?: string;
}

/**
 * Why a connection may not be opened before any lookup: Unix sockets never, and an IP literal (which
 * Node connects to without a lookup) when the policy refuses it.
 */
function refusal(options: ConnectTarget, policy: AddressPolicy): BlockedAddressError | null {
  if (options.socketPath) return new BlockedAddressError(options.socketPath, 'a local socket');
  const host = (options.host ?? options.hostname ?? 'localhost').replace(/^\[|\]$/g, '');
  return isIP(host) && !policy.allows(host) ? new BlockedAddressError(host, host) : null;
}

type Connect = (options: never, callback?: (error: Error | null, stream: Duplex) => void) => Duplex | null | undefined;

/** Runs the policy on the target, then the agent's own connect; a refusal fails the request through the callback. */
function guardedConnect(connect: Connect, policy: AddressPolicy): Connect {
  return (options, callback) => {
    const refused = refusal(options as ConnectTarget, policy);
    if (!refused) return connect(options, callback);
    process.nextTick(() => callback?.(refused, undefined as unknown as Duplex));
    return undefined;
  };
}

export interface GuardedAgents {
  http: HttpAgent;
  https: HttpsAgent;
}

/**
 * The one guarded pair of agents for every outbound HTTP(S) call: each connection's destination
 * address is checked against the policy when it is opened — after DNS resolution, IP literals and
 * every address a name resolves to alike. Redirects are the caller's business (the guarded fetch never
 * follows them; the AWS SDK does not either), and each new connection is checked again anyway.
 */
export function guardedAgents(
  policy: AddressPolicy,
  options: { http?: HttpAgentOptions; https?: HttpsAgentOptions; resolve?: Resolve } = {},
): GuardedAgents {
  const lookup = guardedLookup(policy, options.resolve);
  const http = new HttpAgent({ keepAlive: true, ...options.http, lookup });
  const https = new HttpsAgent({ keepAlive: true, ...options.https, lookup });
  http.createConnection = guardedConnect(http.createConnection.bind(http) as Connect, policy);
  https.createConnection = guardedConnect(https.createConnection.bind(https) as Connect, policy);
  return { http, https };
}

/** Network failures to describe alike ("cannot be reached"), so an answer never tells a refused address from a closed port. */
const UNREACHABLE_CODES = new Set([
  'ERR_ADDRESS_BLOCKED',
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NODATA',
  'EAI_NONAME',
  'ETIMEDOUT',
  'ECONNRESET',
  'EPIPE',
  'EADDRNOTAVAIL',
]);

/** Whether an error (or one of its causes) is a failure to reach the destination at all. */
export function isUnreachable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
