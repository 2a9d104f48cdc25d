import { describe, expect, it } from 'vitest';
import { windowOf } from '@/data/metrics/window';
import { DASHBOARD_PRESETS, NO_DATES, PANEL_PRESETS, pickDate, presetMinutes } from './presets';

describe('presets', () => {
  it('offers the dashboard presets from 30 minutes to 90 days', () => {
    expect(DASHBOARD_PRESETS.map((preset) => preset.label)).toEqual([
      'Last 30 minutes',
      'Last 1 hour',
      'Last 3 hours',
      'Last 6 hours',
      'Last 12 hours',
      'Last 24 hours',
      'Last 2 days',
      'Last 7 days',
      'Last 14 days',
      'Last 30 days',
      'Last 60 days',
      'Last 90 days',
    ]);
  });
  it('offers the panel durations 5, 15, 30 minutes and 1, 3, 6, 12, 24 hours', () => {
    expect(PANEL_PRESETS.map((preset) => preset.label)).toEqual([
      '5 minutes',
      '15 minutes',
      '30 minutes',
      '1 hour',
      '3 hours',
      '6 hours',
      '12 hours',
      '24 hours',
    ]);
  });
  it('falls back to 5 minutes for an unknown preset', () => {
    expect(presetMinutes('720')).toBe(720);
    expect(presetMinutes(90 * 1440)).toBe(90 * 1440);
    expect(presetMinutes('45')).toBe(5);
    expect(presetMinutes(undefined)).toBe(5);
  });
});

describe('dates', () => {
  it('fills a missing To by the preset from the start of From', () => {
    expect(pickDate(NO_DATES, 'from', '2024-03-01', 720)).toEqual({ from: '2024-03-01', to: '2024-03-01' });
    expect(pickDate(NO_DATES, 'from', '2024-03-01', 7 * 1440)).toEqual({ from: '2024-03-01', to: '2024-03-07' });
    expect(pickDate(NO_DATES, 'from', '2024-02-28', 2880)).toEqual({ from: '2024-02-28', to: '2024-02-29' });
  });
  it('fills a missing From by the preset back from the end of To', () => {
    expect(pickDate(NO_DATES, 'to', '2024-03-10', 720)).toEqual({ from: '2024-03-10', to: '2024-03-10' });
    expect(pickDate(NO_DATES, 'to', '2024-03-10', 30 * 1440)).toEqual({ from: '2024-02-10', to: '2024-03-10' });
  });
  it('keeps the other date when it is already picked', () => {
    expect(pickDate({ from: '2024-03-01', to: '2024-03-05' }, 'from', '2024-03-03', 720)).toEqual({
      from: '2024-03-03',
      to: '2024-03-05',
    });
  });
  it('takes the custom days in UTC, else the last preset duration', () => {
    const now = Date.parse('2024-03-10T12:00:00Z');
    expect(windowOf(720, { from: '2024-03-01', to: '2024-03-02' }, now)).toEqual({
      from: new Date('2024-03-01T00:00:00.000Z'),
      to: new Date('2024-03-02T23:59:59.999Z'),
    });
    expect(windowOf(720, { from: '2024-03-01', to: '' }, now)).toEqual({
      from: new Date('2024-03-10T00:00:00.000Z'),
      to: new Date(now),
    });
  });
});
