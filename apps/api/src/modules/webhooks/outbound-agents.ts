import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * The connections the dispatcher makes: keep-alive agents whose every connection is checked after DNS
 * resolution, at connect time (so a name that resolves elsewhere later, DNS rebinding, is checked again).
 * The one interface the dispatcher depends on; the project's shared guard replaces this file's check.
 */
export interface OutboundAgents {
  http: http.Agent;
  https: https.Agent;
  destroy(): void;
}

export class ForbiddenAddressError extends Error {
  readonly code = 'ERR_FORBIDDEN_ADDRESS';
}

/** Address classes a callback may not reach unless private networks are allowed (the first that matches names it). */
const FORBIDDEN: Array<[label: string, subnets: Array<[string, number, 'ipv4' | 'ipv6']>]> = [
  [
    'metadata',
    [
      ['169.254.169.254', 32, 'ipv4'],
      ['100.100.100.200', 32, 'ipv4'],
      ['fd00:ec2::254', 128, 'ipv6'],
    ],
  ],
  [
    'loopback',
    [
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ],
  ],
  [
    'private',
    [
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
      ['100.64.0.0', 10, 'ipv4'],
      ['fc00::', 7, 'ipv6'],
    ],
  ],
  [
    'link-local',
    [
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
    ],
  ],
  [
    'unspecified, multicast or reserved',
    [
      ['0.0.0.0', 8, 'ipv4'],
      ['224.0.0.0', 4, 'ipv4'],
      ['240.0.0.0', 4, 'ipv4'],
      ['::', 128, 'ipv6'],
      ['ff00::', 8, 'ipv6'],
    ],
  ],
];

const LISTS = FORBIDDEN.map(([label, subnets]) => {
  const list = new BlockList();
  for (const [network, prefix, type] of subnets) list.addSubnet(network, prefix, type);
  return [label, list] as const;
});

/** Why an address may not be reached (its class), or null when it may. IPv4-mapped IPv6 counts as IPv4. */
export function forbiddenAddressClass(address: string): string | null {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const ip = mapped ?? address;
  const type = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  for (const [label, list] of LISTS) if (list.check(ip, type)) return label;
  return null;
}

function refuse(address: string, label: string): ForbiddenAddressError {
  return new ForbiddenAddressError(`The address ${address} may not be called (${label})`);
}

/** dns.lookup, then every resolved address checked. */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    for (const { address } of addresses) {
      const label = forbiddenAddressClass(address);
      if (label) return callback(refuse(address, label), '', 0);
    }
    if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const first = addresses[0];
    if (!first) return callback(new Error(`${hostname} has no address`), '', 0);
    callback(null, first.address, first.family);
  });
};

type ConnectOptions = { host?: string | null; hostname?: string | null };

/** An IP literal is connected to without a lookup: it is checked before connecting. */
function literalRefusal(options: ConnectOptions): ForbiddenAddressError | null {
  const host = (options.hostname ?? options.host ?? '').replace(/^\[|\]$/g, '');
  if (!isIP(host)) return null;
  const label = forbiddenAddressClass(host);
  return label ? refuse(host, label) : null;
}

function guarded<A extends http.Agent>(AgentClass: new (options: https.AgentOptions) => A): A {
  const agent = new AgentClass({ keepAlive: true, maxSockets: 32, lookup: guardedLookup } as https.AgentOptions);
  const create = (agent as unknown as { createConnection: http.Agent['createConnection'] }).createConnection.bind(
    agent,
  );
  (agent as unknown as { createConnection: unknown }).createConnection = (
    options: ConnectOptions & Record<string, unknown>,
    callback: (error: Error | null, socket?: unknown) => void,
  ) => {
    const refusal = literalRefusal(options);
    // The agent hands the error to the request, which fails with it.
    if (refusal) return void callback(refusal);
    return create({ ...options, lookup: guardedLookup } as never, callback as never);
  };
  return agent;
}

/** Keep-alive agents; with `allowPrivateNetworks` (self-hosted setups, tests) nothing is refused. */
export function createOutboundAgents(options: { allowPrivateNetworks: boolean }): OutboundAgents {
  const agents = options.allowPrivateNetworks
    ? {
        http: new http.Agent({ keepAlive: true, maxSockets: 32 }),
        https: new https.Agent({ keepAlive: true, maxSockets: 32 }),
      }
    : { http: guarded(http.Agent), https: guarded(https.Agent) };
  return {
    ...agents,
    destroy: () => {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
