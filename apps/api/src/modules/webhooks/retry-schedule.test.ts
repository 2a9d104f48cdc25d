import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_DELAYS_MS, RETRY_JITTER, retryAt } from './retry-schedule.js';

const at = new Date('2026-01-01T00:00:00Z');
const delayOf = (step: number, random: number) =>
  (retryAt(step, at, DEFAULT_RETRY_DELAYS_MS, () => random)?.getTime() ?? 0) - at.getTime();

describe('retry schedule', () => {
  it('is 30 s, 2 min, 10 min, 1 h, 6 h and 24 h, then gives up', () => {
    expect([0, 1, 2, 3, 4, 5].map((step) => delayOf(step, 0.5))).toEqual([
      30_000, 120_000, 600_000, 3_600_000, 21_600_000, 86_400_000,
    ]);
    expect(retryAt(6, at)).toBeNull();
  });

  it('spreads each delay by up to 20 % either way', () => {
    expect(RETRY_JITTER).toBe(0.2);
    expect(delayOf(0, 0)).toBe(24_000);
    expect(delayOf(0, 0.999_999)).toBe(36_000);
    const spread = new Set(Array.from({ length: 50 }, () => retryAt(3, at)?.getTime()));
    expect(spread.size).toBeGreaterThan(40);
    for (const time of spread) {
      expect((time ?? 0) - at.getTime()).toBeGreaterThanOrEqual(2_880_000);
      expect((time ?? 0) - at.getTime()).toBeLessThanOrEqual(4_320_000);
    }
  });
});
