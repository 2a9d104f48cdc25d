import { beforeAll, describe, expect, it } from 'vitest';
import { regionOfCountry } from './continents.js';
import { GeoLocator } from './geo-locator.js';

let geo: GeoLocator;
beforeAll(async () => {
  geo = await GeoLocator.open();
});

describe('GeoLocator', () => {
  it('locates public addresses with a description, a point and a region', () => {
    expect(geo.locate('81.2.69.160')).toEqual({
      ipAddress: '81.2.69.160',
      description: 'Bracknell, England, United Kingdom',
      geo: { latitude: expect.closeTo(51.4, 1), longitude: expect.closeTo(-0.76, 1) },
      region: 'EU',
    });
    expect(geo.locate('2.16.0.1')?.region).toBe('SA');
    expect(geo.locate('8.8.8.8')?.region).toBe('NA');
  });

  it('answers null for private, loopback, malformed and unknown addresses', () => {
    for (const address of ['192.168.1.10', '10.0.0.1', '127.0.0.1', '::1', 'not-an-ip', '']) {
      expect(geo.locate(address)).toBeNull();
    }
  });

  it('maps every continent', () => {
    expect(['DE', 'US', 'BR', 'JP', 'NG', 'AQ', 'AU'].map(regionOfCountry)).toEqual([
      'EU',
      'NA',
      'SA',
      'AS',
      'AF',
      'AN',
      'OC',
    ]);
    expect(regionOfCountry('ZZ')).toBeNull();
  });
});
