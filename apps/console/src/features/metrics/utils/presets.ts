import type { CustomDates } from '@/data/metrics/window';
import { endOfDayUtc, isDateInput, startOfDayUtc, toDateInput } from '@/lib/format';

const HOUR = 60;
const DAY = 24 * HOUR;

/** Every preset duration (minutes) the metrics screens know; anything else falls back to 5 minutes. */
export const PRESET_MINUTES = [
  5,
  15,
  30,
  60,
  180,
  360,
  720,
  1440,
  2880,
  7 * DAY,
  14 * DAY,
  30 * DAY,
  60 * DAY,
  90 * DAY,
];
export const FALLBACK_PRESET_MINUTES = 5;

export function presetMinutes(value: unknown): number {
  const minutes = Number(value);
  return PRESET_MINUTES.includes(minutes) ? minutes : FALLBACK_PRESET_MINUTES;
}

function durationLabel(minutes: number): string {
  if (minutes < HOUR) return `${minutes} minutes`;
  if (minutes <= DAY) return `${minutes / HOUR} ${minutes === HOUR ? 'hour' : 'hours'}`;
  return `${minutes / DAY} days`;
}

/** The dashboard's dropdown: 30 minutes and up, 'Last …'. */
export const DASHBOARD_PRESETS = PRESET_MINUTES.filter((minutes) => minutes >= 30).map((minutes) => ({
  minutes,
  label: `Last ${durationLabel(minutes)}`,
}));
export const DASHBOARD_DEFAULT_PRESET = 720;

/** The stream panel's durations: 5, 15, 30 minutes and 1, 3, 6, 12, 24 hours. */
export const PANEL_PRESETS = PRESET_MINUTES.filter((minutes) => minutes <= DAY).map((minutes) => ({
  minutes,
  label: durationLabel(minutes),
}));
export const PANEL_DEFAULT_MINUTES = { compact: 5, full: 30 } as const;

export const NO_DATES: CustomDates = { from: '', to: '' };

/**
 * A picked date; when the other one is missing it is filled by offsetting the picked day by the preset
 * duration (From: forward from its start; To: back from its end).
 */
export function pickDate(dates: CustomDates, which: 'from' | 'to', value: string, preset: number): CustomDates {
  const next = { ...dates, [which]: value };
  if (!isDateInput(value)) return next;
  const other = which === 'from' ? 'to' : 'from';
  if (isDateInput(dates[other])) return next;
  const span = preset * 60_000;
  next[other] =
    which === 'from'
      ? toDateInput(startOfDayUtc(value).getTime() + span - 1)
      : toDateInput(endOfDayUtc(value).getTime() + 1 - span);
  return next;
}
