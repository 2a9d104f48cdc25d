import { BlockList, isIP } from 'node:net';

/** Address lists of tokens seen lately, made into block lists once (a token is verified at each session start). */
const BLOCK_LISTS_KEPT = 1024;
const blockLists = new Map<string, BlockList>();

function blockListOf(entries: readonly string[]): BlockList {
  const key = entries.join(',');
  let allowed = blockLists.get(key);
  if (allowed) return allowed;
  allowed = new BlockList();
  for (const entry of entries) {
    const [base = '', prefix] = entry.split('/');
    const type = isIP(base) === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) allowed.addAddress(base, type);
    else allowed.addSubnet(base, Number(prefix), type);
  }
  // Bounded: past the limit the cache starts again (tokens carrying address lists are few and short-lived).
  if (blockLists.size >= BLOCK_LISTS_KEPT) blockLists.clear();
  blockLists.set(key, allowed);
  return allowed;
}

/** Whether `address` (IPv4, IPv6, IPv4-mapped IPv6) is one of `entries` (addresses and CIDR blocks, already checked). */
export function addressAllowed(address: string | null | undefined, entries: readonly string[]): boolean {
  const bare = address?.replace(/^\[|\]$/g, '').replace(/%.*$/, '') ?? '';
  const family = isIP(bare);
  if (family === 0) return false;
  return blockListOf(entries).check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

/** The origin (`scheme://host[:port]`, lower case) of a page's Origin header or referrer, or null. */
export function originOf(value: string | null | undefined): string | null {
  if (!value || value === 'null') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** Whether a page `origin` is one of `allowed` (exact, or `scheme://*.domain` for its subdomains). */
export function originAllowed(origin: string | null, allowed: readonly string[]): boolean {
  if (!origin) return false;
  return allowed.some((entry) => {
    const wildcard = /^(https?:\/\/)\*\.(.+)$/.exec(entry);
    if (!wildcard) return entry === origin;
    const [, scheme = '', rest = ''] = wildcard;
    return origin.startsWith(scheme) && origin.endsWith(`.${rest}`) && origin.length > scheme.length + rest.length + 1;
  });
}
