const SIZE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

/** A size in base-10 units (section 9): 950 B, 1.2 kB, 3.45 MB (at most 2 decimals). */
export function formatBytes(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < SIZE_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${Math.round(value * 100) / 100} ${SIZE_UNITS[unit]}`;
}
