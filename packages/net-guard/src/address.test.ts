import { describe, expect, it } from 'vitest';
import { type AddressKind, addressPolicy, classifyAddress, ipv6Bytes, loopbackOnly } from './address.js';

const cases: Array<[string, AddressKind]> = [
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['2606:4700:4700::1111', 'public'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['::1', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['0:0:0:0:0:ffff:7f00:0001', 'loopback'],
  ['64:ff9b::7f00:1', 'loopback'],
  ['2002:7f00:1::', 'loopback'],
  ['::127.0.0.1', 'loopback'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['172.32.0.1', 'public'],
  ['192.168.1.1', 'private'],
  ['100.64.0.1', 'private'],
  ['198.18.0.1', 'private'],
  ['fd00::1', 'private'],
  ['fc00::1', 'private'],
  ['::ffff:10.1.2.3', 'private'],
  ['64:ff9b:1::a', 'private'],
  ['169.254.169.254', 'forbidden'],
  ['169.254.0.1', 'forbidden'],
  ['::ffff:169.254.169.254', 'forbidden'],
  ['::ffff:a9fe:a9fe', 'forbidden'],
  ['fd00:ec2::254', 'forbidden'],
  ['100.100.100.200', 'forbidden'],
  ['fe80::1', 'forbidden'],
  ['fe80::1%eth0', 'forbidden'],
  ['0.0.0.0', 'forbidden'],
  ['0.1.2.3', 'forbidden'],
  ['::', 'forbidden'],
  ['224.0.0.1', 'forbidden'],
  ['255.255.255.255', 'forbidden'],
  ['ff02::1', 'forbidden'],
  ['192.0.2.1', 'forbidden'],
  ['2001:db8::1', 'forbidden'],
  ['127.1', 'forbidden'],
  ['localhost', 'forbidden'],
  ['not an address', 'forbidden'],
];

describe('classifyAddress', () => {
  it.each(cases)('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('ipv6Bytes', () => {
  it('expands every written form', () => {
    expect(ipv6Bytes('::1')).toEqual([...new Array(15).fill(0), 1]);
    expect(ipv6Bytes('[2001:db8::ff00:42:8329]')).toEqual([
      0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0xff, 0, 0, 0x42, 0x83, 0x29,
    ]);
    expect(ipv6Bytes('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 1, 2, 3, 4]);
    expect(ipv6Bytes('1.2.3.4')).toBeNull();
  });
});

describe('policies', () => {
  it('allow public addresses, private ones only when told, forbidden ones never', () => {
    const strict = addressPolicy({ allowPrivate: false });
    const lenient = addressPolicy({ allowPrivate: true });
    expect(strict.allows('8.8.8.8')).toBe(true);
    expect(strict.allows('10.0.0.1')).toBe(false);
    expect(strict.allows('127.0.0.1')).toBe(false);
    expect(lenient.allows('10.0.0.1')).toBe(true);
    expect(lenient.allows('::1')).toBe(true);
    for (const address of ['169.254.169.254', 'fd00:ec2::254', '0.0.0.0', '::', 'fe80::1']) {
      expect(lenient.allows(address), address).toBe(false);
    }
    expect(loopbackOnly.allows('127.0.0.1')).toBe(true);
    expect(loopbackOnly.allows('10.0.0.1')).toBe(false);
    expect(loopbackOnly.allows('8.8.8.8')).toBe(false);
  });
});
