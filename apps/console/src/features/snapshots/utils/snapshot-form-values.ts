import { SNAPSHOT_DEFAULTS, type SnapshotDirection, SnapshotSettings } from '@streamcloud/contract';
import type { Resolver } from 'react-hook-form';
import { z } from 'zod';
import { contractResolver } from '@/lib/forms';

export interface DirectionValues {
  enabled: boolean;
  format: SnapshotSettings['format'];
  quality: SnapshotSettings['quality'];
  interval: string;
}

export type SnapshotFormValues = Record<SnapshotDirection, DirectionValues>;

export function directionValues(settings: SnapshotSettings | null | undefined): DirectionValues {
  const base = settings ?? SNAPSHOT_DEFAULTS;
  return { enabled: Boolean(settings), format: base.format, quality: base.quality, interval: String(base.interval) };
}

/** A disabled direction is sent as null (section 4). */
export function settingsOf(values: DirectionValues): unknown {
  if (!values.enabled) return null;
  return {
    format: values.format,
    quality: values.quality,
    interval: values.interval.trim() === '' ? undefined : Number(values.interval),
  };
}

/** Both directions as the form saves them: settings, or null for a disabled one. */
const SnapshotDirections = z.object({ incoming: SnapshotSettings.nullable(), outgoing: SnapshotSettings.nullable() });

/** The snapshot form's rules (the server's own): each enabled direction is checked, under `incoming.interval`... */
export const snapshotResolver: Resolver<SnapshotFormValues> = contractResolver(SnapshotDirections, {
  toBody: (values: SnapshotFormValues) => ({
    incoming: settingsOf(values.incoming),
    outgoing: settingsOf(values.outgoing),
  }),
});
