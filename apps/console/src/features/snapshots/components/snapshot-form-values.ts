import {
  SNAPSHOT_DEFAULTS,
  SNAPSHOT_DIRECTIONS,
  type SnapshotDirection,
  SnapshotSettings,
} from '@streamcloud/contract';
import type { FieldErrors, Resolver } from 'react-hook-form';

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

/** The snapshot form's rules (the server's own): each enabled direction is checked. */
export const snapshotResolver: Resolver<SnapshotFormValues> = async (values) => {
  const errors: Record<string, Record<string, { type: string; message: string }>> = {};
  for (const direction of SNAPSHOT_DIRECTIONS) {
    const settings = settingsOf(values[direction]);
    if (settings === null) continue;
    const result = SnapshotSettings.safeParse(settings);
    if (result.success) continue;
    for (const issue of result.error.issues) {
      const field = String(issue.path[0]);
      errors[direction] ??= {};
      errors[direction][field] ??= { type: 'validate', message: issue.message };
    }
  }
  return Object.keys(errors).length > 0
    ? { values: {}, errors: errors as FieldErrors<SnapshotFormValues> }
    : { values, errors: {} };
};
