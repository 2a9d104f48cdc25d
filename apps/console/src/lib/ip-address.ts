import { z } from 'zod';

const IpAddress = z.union([z.ipv4(), z.ipv6()]);

/** An IPv4 or IPv6 address, as GET /info/location takes it. */
export function isIpAddress(text: string): boolean {
  return IpAddress.safeParse(text).success;
}
