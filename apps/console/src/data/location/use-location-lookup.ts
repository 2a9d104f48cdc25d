import type { GeoPoint } from '@streamcloud/contract';
import { isIpAddress } from '@/lib/ip-address';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useLocation } from './get-location';

/** The location lookup waits this long after typing stops (both specs: 500 ms). */
export const LOCATION_LOOKUP_DEBOUNCE_MS = 500;

export type LocationLookup =
  | { kind: 'none' }
  | { kind: 'looking' }
  | { kind: 'found'; description: string; geo: GeoPoint }
  | { kind: 'undetermined' };

/**
 * Where an address is, looked up 500 ms after it stops changing: nothing for an empty address,
 * undetermined for one that is not an IP address, or that the lookup cannot place.
 */
export function useLocationLookup(address: string): LocationLookup {
  const typed = address.trim();
  const settled = useDebouncedValue(typed, LOCATION_LOOKUP_DEBOUNCE_MS);
  const lookup = useLocation(isIpAddress(settled) ? settled : undefined);
  if (typed === '') return { kind: 'none' };
  if (settled !== typed) return { kind: 'looking' };
  if (!isIpAddress(settled)) return { kind: 'undetermined' };
  if (lookup.isPending) return { kind: 'looking' };
  if (lookup.isError || !lookup.data?.description) return { kind: 'undetermined' };
  return { kind: 'found', description: lookup.data.description, geo: lookup.data.geo };
}
