import { describe, expect, it } from 'vitest';
import { BUCKET_RATIO } from './analytics.repository.js';
import { percentilesOf } from './histogram.js';

const bucketOf = (value: number) => Math.floor(Math.log(1 + value) / Math.log(BUCKET_RATIO));

describe('percentilesOf', () => {
  it('answers the median and p95 of bucketed values within half a bucket', () => {
    const values = Array.from({ length: 1000 }, (_, index) => 200 + index * 3);
    const counts = values.map((value) => ({ bucket: bucketOf(value), sessions: 1 }));
    const { median, p95 } = percentilesOf(counts);
    expect(Math.abs((median ?? 0) - 1698.5) / 1698.5).toBeLessThan(0.05);
    expect(Math.abs((p95 ?? 0) - 3048) / 3048).toBeLessThan(0.05);
  });

  it('adds up the counts of one bucket from several sources, and has nothing without samples', () => {
    expect(percentilesOf([])).toEqual({ median: null, p95: null });
    const one = percentilesOf([
      { bucket: 10, sessions: 1 },
      { bucket: 50, sessions: 1 },
      { bucket: 50, sessions: 1 },
    ]);
    expect(one.median).toBeCloseTo(BUCKET_RATIO ** 50.5 - 1);
  });
});
