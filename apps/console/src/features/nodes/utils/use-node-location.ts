import { useEffect, useRef } from 'react';
import { type Control, type UseFormGetValues, type UseFormSetValue, useFormState, useWatch } from 'react-hook-form';
import { type LocationLookup, useLocationLookup } from '@/data/location/use-location-lookup';
import { isIpAddress } from '@/lib/ip-address';
import type { NodeFormValues } from './node-form-values';

type LocationField = 'location.description' | 'location.geo.latitude' | 'location.geo.longitude';

/** The node's location description may be this long (section 5). */
const DESCRIPTION_MAX = 128;

/**
 * The address a node's location is looked up from: its hostname when that is an IP address, else its
 * public IPv4 when that is one, else the hostname (a DNS name the console cannot place: undetermined).
 */
export function nodeLookupAddress(hostname: string, publicIPv4: string): string {
  const host = hostname.trim();
  const publicAddress = publicIPv4.trim();
  if (!isIpAddress(host) && isIpAddress(publicAddress)) return publicAddress;
  return host;
}

/**
 * The node form's location lookup: once the hostname or public IPv4 is changed, the address is looked
 * up 500 ms after typing stops and a location found fills the description and the geo point, unless the
 * admin typed them (an empty field, or one holding what an earlier lookup wrote, is filled). A stored
 * node's address is not looked up again until it is edited.
 */
export function useNodeLocation(
  control: Control<NodeFormValues>,
  setValue: UseFormSetValue<NodeFormValues>,
  getValues: UseFormGetValues<NodeFormValues>,
) {
  const [hostname, publicIPv4] = useWatch({ control, name: ['connection.hostname', 'settings.publicIPv4'] });
  const { dirtyFields } = useFormState({ control });
  const edited = Boolean(dirtyFields.connection?.hostname || dirtyFields.settings?.publicIPv4);
  const lookup: LocationLookup = useLocationLookup(edited ? nodeLookupAddress(hostname, publicIPv4) : '');
  // What the last lookup wrote: a field the admin has typed into since is not overwritten.
  const filled = useRef<Partial<Record<LocationField, string>>>({});

  const found = lookup.kind === 'found' ? lookup : null;
  const [description, latitude, longitude] = found
    ? [found.description, found.geo.latitude, found.geo.longitude]
    : [null, null, null];
  useEffect(() => {
    if (description === null || latitude === null || longitude === null) return;
    const values: Record<LocationField, string> = {
      'location.description': description.slice(0, DESCRIPTION_MAX),
      'location.geo.latitude': String(latitude),
      'location.geo.longitude': String(longitude),
    };
    for (const [field, value] of Object.entries(values) as [LocationField, string][]) {
      const current = getValues(field);
      if (current !== '' && current !== filled.current[field]) continue;
      setValue(field, value, { shouldDirty: true, shouldValidate: true });
      filled.current[field] = value;
    }
  }, [description, latitude, longitude, getValues, setValue]);

  return lookup;
}
