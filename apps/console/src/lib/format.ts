/**
 * Units and dates as the console shows them: traffic in decimal GB, durations as hh:mm:ss (in days past
 * one day), bit rates in base-10 bits per second with 'ps', RTT in ms, dates in UTC.
 */

const DAY_SECONDS = 24 * 3600;
const DAY_MS = DAY_SECONDS * 1000;

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/**
 * Bytes as decimal gigabytes (bytes / 1e9) with a fixed number of decimals (0 to 9), without the unit.
 * Rounds half up on the decimal value (6,050,000,000 bytes is 6.1 at 1 decimal), not on its binary double.
 */
export function gigabytes(bytes: number, decimals: number): string {
  const units = Math.round(Math.abs(bytes) / 10 ** (9 - decimals));
  const scale = 10 ** decimals;
  const whole = Math.floor(units / scale);
  const sign = bytes < 0 && units > 0 ? '-' : '';
  return decimals === 0 ? `${sign}${whole}` : `${sign}${whole}.${String(units % scale).padStart(decimals, '0')}`;
}

/** Traffic in reports: decimal GB with 1 decimal. */
export function formatTraffic(bytes: number): string {
  return `${gigabytes(bytes, 1)} GB`;
}

/** hh:mm:ss up to one day; over one day `N day(s) hh:mm:ss`. Seconds are rounded. */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  const clock = (value: number) =>
    `${pad(Math.floor(value / 3600))}:${pad(Math.floor((value % 3600) / 60))}:${pad(value % 60)}`;
  if (seconds <= DAY_SECONDS) return clock(seconds);
  const days = Math.floor(seconds / DAY_SECONDS);
  return `${days} ${days === 1 ? 'day' : 'days'} ${clock(seconds % DAY_SECONDS)}`;
}

/** Divides by 1000 until the value is under 1000 or the units run out: the value and its unit's index. */
function scaleDecimal(value: number, unitCount: number): { value: number; unit: number } {
  let scaled = Math.max(0, value);
  let unit = 0;
  while (scaled >= 1000 && unit < unitCount - 1) {
    scaled /= 1000;
    unit += 1;
  }
  return { value: scaled, unit };
}

const BITRATE_UNITS = ['bps', 'kbps', 'mbps', 'gbps', 'tbps'] as const;

/** Bits per second in a megabit per second: what a bandwidth limit given in Mbps is multiplied by. */
export const BITS_PER_MEGABIT = 1_000_000;

/**
 * The console's one bit rate format, from bits per second, in the spec's base-10 units: 950 bps, 1.2 kbps,
 * 2 mbps, 1.05 gbps (at most 2 decimals); empty for what is not a number (an input being typed).
 */
export function formatBitrate(bitsPerSecond: number): string {
  if (!Number.isFinite(bitsPerSecond)) return '';
  const { value, unit } = scaleDecimal(bitsPerSecond, BITRATE_UNITS.length);
  const rounded = Math.round(value * 100) / 100;
  if (rounded >= 1000 && unit < BITRATE_UNITS.length - 1) return `1 ${BITRATE_UNITS[unit + 1]}`;
  return `${rounded} ${BITRATE_UNITS[unit]}`;
}

const SIZE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

/** A size in base-10 units (section 9): 950 B, 1.2 kB, 3.45 MB (at most 2 decimals). */
export function formatBytes(bytes: number): string {
  const { value, unit } = scaleDecimal(bytes, SIZE_UNITS.length);
  return `${Math.round(value * 100) / 100} ${SIZE_UNITS[unit]}`;
}

/** Round-trip time in milliseconds. */
export function formatRtt(milliseconds: number): string {
  return `${Math.round(milliseconds)} ms`;
}

/** A count (viewers) with at most 2 decimals (averages of counts are not whole). */
export function formatCount(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** Packets per second (the node reports packet counts as rates over its report interval): "120/s", "1.5/s". */
export function formatPacketRate(perSecond: number): string {
  return `${formatCount(perSecond)}/s`;
}

const asDate = (value: Date | string | number) => (value instanceof Date ? value : new Date(value));

/** DD/MM/YYYY in UTC (printed dates). */
export function formatDate(value: Date | string | number): string {
  const date = asDate(value);
  return `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${date.getUTCFullYear()}`;
}

const time = (date: Date) => `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;

/** DD/MM/YYYY HH:mm:ss in UTC. */
export function formatDateTime(value: Date | string | number): string {
  const date = asDate(value);
  return `${formatDate(date)} ${time(date)}`;
}

/** DD/MM/YY HH:mm:ss in UTC (the account CSV). */
export function formatCsvDateTime(value: Date | string | number): string {
  const date = asDate(value);
  return `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCFullYear() % 100)} ${time(date)}`;
}

const DATE_INPUT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A date picker's value (yyyy-mm-dd) is valid. */
export function isDateInput(value: string): boolean {
  const match = DATE_INPUT.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}

/** The start of a picked day in UTC (00:00:00.000). */
export function startOfDayUtc(value: string): Date {
  if (!isDateInput(value)) throw new RangeError(`Not a yyyy-mm-dd date: ${value}`);
  return new Date(`${value}T00:00:00.000Z`);
}

/** The end of a picked day in UTC (23:59:59.999). */
export function endOfDayUtc(value: string): Date {
  return new Date(startOfDayUtc(value).getTime() + DAY_MS - 1);
}

/** The UTC day of an instant as a date picker's value (yyyy-mm-dd). */
export function toDateInput(value: Date | number): string {
  return asDate(value).toISOString().slice(0, 10);
}

/** The first and the last day of the current month (UTC), as date picker values. */
export function currentMonth(now: Date = new Date()): { from: string; to: string } {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return {
    from: toDateInput(new Date(Date.UTC(year, month, 1))),
    to: toDateInput(new Date(Date.UTC(year, month + 1, 0))),
  };
}
