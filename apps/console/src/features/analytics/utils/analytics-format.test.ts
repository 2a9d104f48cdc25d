import { describe, expect, it } from 'vitest';
import { windowOf } from '@/data/analytics/reads';
import { DEFAULT_WINDOW_MINUTES, formatMs, formatRatio, formatWatch, windowMinutes } from './analytics-format';

describe('analytics formats', () => {
  it('shows times in ms under a second, in seconds above, and a dash when not measured', () => {
    expect([formatMs(850), formatMs(1234), formatMs(null)]).toEqual(['850 ms', '1.2 s', '—']);
  });

  it('shows ratios as percentages and watch time as a duration', () => {
    expect(formatRatio(1000 / 13_000)).toBe('7.7 %');
    expect(formatWatch(3_725_000)).toBe('01:02:05');
  });

  it('takes only the offered windows, and builds the API window back from now', () => {
    expect(windowMinutes('60')).toBe(60);
    expect(windowMinutes('61')).toBe(DEFAULT_WINDOW_MINUTES);
    expect(windowOf(60, Date.parse('2026-11-29T12:00:00Z'))).toEqual({
      from: '2026-11-29T11:00:00.000Z',
      to: '2026-11-29T12:00:00.000Z',
    });
  });
});
