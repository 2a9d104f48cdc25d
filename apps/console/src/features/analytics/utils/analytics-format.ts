import { formatDuration } from '@/lib/format';

const HOUR = 60;
const DAY = 24 * HOUR;

/** The windows the analytics screens offer (minutes back from now), and the default one. */
export const ANALYTICS_WINDOWS = [
  { minutes: HOUR, label: 'Last hour' },
  { minutes: DAY, label: 'Last 24 hours' },
  { minutes: 7 * DAY, label: 'Last 7 days' },
  { minutes: 30 * DAY, label: 'Last 30 days' },
] as const;
export const DEFAULT_WINDOW_MINUTES = DAY;

/** A window's minutes from a select's value; anything unknown is the default. */
export function windowMinutes(value: unknown): number {
  const minutes = Number(value);
  return ANALYTICS_WINDOWS.some((window) => window.minutes === minutes) ? minutes : DEFAULT_WINDOW_MINUTES;
}

/** A time in milliseconds as the analytics show it: `850 ms`, `1.2 s`; `—` when not measured. */
export function formatMs(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/** A ratio (0…1) as a percentage with one decimal: `7.7 %`. */
export const formatRatio = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;

/** Watch time in hh:mm:ss (the console's duration format). */
export const formatWatch = (ms: number) => formatDuration(ms / 1000);
