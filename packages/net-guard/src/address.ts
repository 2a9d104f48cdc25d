import { isIPv4, isIPv6 } from 'node:net';

/**
 * What an IP address is, for deciding whether the platform may connect to it:
 * - `public`: anything routable on the internet;
 * - `loopback`: 127.0.0.0/8, ::1;
 * - `private`: RFC 1918, shared address space (100.64.0.0/10), IETF and benchmarking ranges, unique local
 *   IPv6 (fc00::/7), local-use NAT64;
 * - `forbidden`: never a destination — unspecified (0.0.0.0/8, ::, which reach the local host), link-local
 *   (169.254.0.0/16, fe80::/10) where cloud metadata services answer, the metadata addresses
 *   themselves (fd00:ec2::254, 100.100.100.200), multicast, broadcast, reserved and documentation ranges,
 *   and anything that is not an IP address.
 * IPv4 embedded in IPv6 (mapped, compatible, NAT64, 6to4, Teredo) is judged as the IPv4 it carries.
 */
export type AddressKind = 'public' | 'private' | 'loopback' | 'forbidden';

type Range = [base: number[], prefix: number, kind: AddressKind];

const V4_RANGES: Range[] = [
  [[0, 0, 0, 0], 8, 'forbidden'],
  [[10, 0, 0, 0], 8, 'private'],
  [[100, 100, 100, 200], 32, 'forbidden'],
  [[100, 64, 0, 0], 10, 'private'],
  [[127, 0, 0, 0], 8, 'loopback'],
  [[169, 254, 0, 0], 16, 'forbidden'],
  [[172, 16, 0, 0], 12, 'private'],
  [[192, 0, 0, 0], 24, 'private'],
  [[192, 0, 2, 0], 24, 'forbidden'],
  [[192, 88, 99, 0], 24, 'forbidden'],
  [[192, 168, 0, 0], 16, 'private'],
  [[198, 18, 0, 0], 15, 'private'],
  [[198, 51, 100, 0], 24, 'forbidden'],
  [[203, 0, 113, 0], 24, 'forbidden'],
  [[224, 0, 0, 0], 4, 'forbidden'],
  [[240, 0, 0, 0], 4, 'forbidden'],
];

const V6_RANGES: Range[] = [
  [[0xfd, 0x00, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54], 128, 'forbidden'],
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 128, 'loopback'],
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 128, 'forbidden'],
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48, 'private'],
  [[0x01, 0x00, 0, 0, 0, 0, 0, 0], 64, 'forbidden'],
  [[0x20, 0x01, 0x0d, 0xb8], 32, 'forbidden'],
  [[0xfc], 7, 'private'],
  [[0xfe, 0x80], 10, 'forbidden'],
  [[0xfe, 0xc0], 10, 'forbidden'],
  [[0xff], 8, 'forbidden'],
];

const inRange = (bytes: number[], [base, prefix]: Range): boolean => {
  for (let bit = 0; bit < prefix; bit += 8) {
    const index = bit / 8;
    const mask = prefix - bit >= 8 ? 0xff : (0xff << (8 - (prefix - bit))) & 0xff;
    if (((bytes[index] ?? 0) & mask) !== ((base[index] ?? 0) & mask)) return false;
  }
  return true;
};

const kindOf = (bytes: number[], ranges: Range[]): AddressKind =>
  ranges.find((range) => inRange(bytes, range))?.[2] ?? 'public';

/** The 16 bytes of an IPv6 address (zone index ignored), or null when it is not one. */
export function ipv6Bytes(text: string): number[] | null {
  const address = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIPv6(address)) return null;
  let head = address;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted?.[1]) {
    tail.push(...dotted[1].split('.').map(Number));
    head = address.slice(0, -dotted[1].length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const toBytes = (groups: string[]) =>
    groups.flatMap((group) => [parseInt(group, 16) >> 8, parseInt(group, 16) & 0xff]);
  const [left = '', right] = head.split('::');
  const leftBytes = toBytes(left ? left.split(':') : []);
  const rightBytes = toBytes(right ? right.split(':') : []);
  const fill = 16 - leftBytes.length - rightBytes.length - tail.length;
  return [...leftBytes, ...new Array(right === undefined ? 0 : fill).fill(0), ...rightBytes, ...tail];
}

/** The IPv4 address an IPv6 address carries, for the forms that reach it: mapped, compatible, NAT64, 6to4, Teredo. */
function embeddedIpv4(bytes: number[]): number[] | null {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12);
  if (zeros(0, 12) && !zeros(12, 16) && !(zeros(12, 15) && bytes[15] === 1)) return bytes.slice(12);
  if (inRange(bytes, [[0x00, 0x64, 0xff, 0x9b], 96, 'public'])) return bytes.slice(12);
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6);
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && bytes[2] === 0 && bytes[3] === 0) {
    return bytes.slice(12).map((byte) => byte ^ 0xff);
  }
  return null;
}

export function classifyAddress(address: string): AddressKind {
  if (isIPv4(address)) return kindOf(address.split('.').map(Number), V4_RANGES);
  const bytes = ipv6Bytes(address);
  if (!bytes) return 'forbidden';
  const v4 = embeddedIpv4(bytes);
  return v4 ? kindOf(v4, V4_RANGES) : kindOf(bytes, V6_RANGES);
}

/** Which destination addresses a guarded connection may reach. */
export interface AddressPolicy {
  allows(address: string): boolean;
}

/**
 * Public addresses always; private and loopback ones only with `allowPrivate` (the operator's setting,
 * e.g. for a self-hosted MinIO, or for the platform's own nodes); forbidden ones never.
 */
export function addressPolicy(options: { allowPrivate: boolean }): AddressPolicy {
  return {
    allows(address) {
      const kind = classifyAddress(address);
      return kind === 'public' || (options.allowPrivate && (kind === 'private' || kind === 'loopback'));
    },
  };
}

/** Loopback only: for tests, whose receivers all listen on 127.0.0.1, so no test ever reaches elsewhere. */
export const loopbackOnly: AddressPolicy = { allows: (address) => classifyAddress(address) === 'loopback' };
