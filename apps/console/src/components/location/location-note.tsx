import geoAltIcon from 'bootstrap-icons/icons/geo-alt.svg?raw';
import { Icon } from '@/components/ui/icon';
import type { LocationLookup } from '@/data/location/use-location-lookup';

/** The spec's text when a lookup fails or yields no location (the stream modal's, and the node form's). */
export const LOCATION_UNDETERMINED = 'Your location undetermined, you will be directed to the free resources zone';
export const LOCATION_LOOKING = 'Looking up the location...';

/** What a location lookup found, under the address it looked up; nothing before one is typed. */
export function LocationNote({ lookup, testId }: { lookup: LocationLookup; testId: string }) {
  if (lookup.kind === 'none') return null;
  const text =
    lookup.kind === 'looking' ? LOCATION_LOOKING : lookup.kind === 'found' ? lookup.description : LOCATION_UNDETERMINED;
  return (
    <p className="small text-secondary mt-n2 mb-3" aria-live="polite" data-testid={testId}>
      <Icon svg={geoAltIcon} className="me-1" />
      {text}
    </p>
  );
}
