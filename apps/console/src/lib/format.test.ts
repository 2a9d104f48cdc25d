import { describe, expect, it } from 'vitest';
import {
  currentMonth,
  endOfDayUtc,
  formatBitrate,
  formatBytes,
  formatCount,
  formatCsvDateTime,
  formatDate,
  formatDateTime,
  formatDuration,
  formatPacketRate,
  formatRtt,
  formatTraffic,
  gigabytes,
  isDateInput,
  startOfDayUtc,
  toDateInput,
} from './format';

describe('traffic', () => {
  it('is decimal GB: bytes / 1e9', () => {
    expect(gigabytes(1_234_567_890, 3)).toBe('1.235');
    expect(gigabytes(1_234_567_890, 2)).toBe('1.23');
    expect(gigabytes(999_999_999, 1)).toBe('1.0');
    expect(gigabytes(0, 3)).toBe('0.000');
    expect(gigabytes(1, 2)).toBe('0.00');
  });
  it('reads with 1 decimal and its unit in reports', () => {
    expect(formatTraffic(6_050_000_000)).toBe('6.1 GB');
    expect(formatTraffic(0)).toBe('0.0 GB');
  });
});

describe('durations', () => {
  it.each([
    [0, '00:00:00'],
    [59.4, '00:00:59'],
    [61, '00:01:01'],
    [3600, '01:00:00'],
    [5400, '01:30:00'],
    [86_399, '23:59:59'],
    [86_400, '24:00:00'],
    [86_401, '1 day 00:00:01'],
    [2 * 86_400 + 3 * 3600 + 4 * 60 + 5, '2 days 03:04:05'],
    [-5, '00:00:00'],
  ])('%d s reads %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
});

describe('bit rates, base 10 with ps', () => {
  it.each([
    [0, '0 bps'],
    [950, '950 bps'],
    [1000, '1 kbps'],
    [1200, '1.2 kbps'],
    [128_000, '128 kbps'],
    [2_000_000, '2 mbps'],
    [1_234_567, '1.23 mbps'],
    [999_999, '1 mbps'],
    [1_050_000_000, '1.05 gbps'],
    [2.5e12, '2.5 tbps'],
    [Number.NaN, ''],
  ])('%d bits per second reads %s', (bps, text) => {
    expect(formatBitrate(bps)).toBe(text);
  });
  it('RTT in ms and counts with 2 decimals at most', () => {
    expect(formatRtt(40.4)).toBe('40 ms');
    expect(formatCount(3)).toBe('3');
    expect(formatCount(2.345)).toBe('2.35');
  });
  it('packet rates per second', () => {
    expect(formatPacketRate(120)).toBe('120/s');
    expect(formatPacketRate(1.505)).toBe('1.51/s');
    expect(formatPacketRate(0)).toBe('0/s');
  });
});

describe('sizes, base 10', () => {
  it.each([
    [-5, '0 B'],
    [950, '950 B'],
    [1200, '1.2 kB'],
    [2500, '2.5 kB'],
    [1_500_000, '1.5 MB'],
    [3_456_789, '3.46 MB'],
    [7e15, '7000 TB'],
  ])('%d bytes read %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe('dates in UTC', () => {
  const instant = new Date('2024-03-05T07:08:09.123Z');
  it('prints DD/MM/YYYY, with the time, and DD/MM/YY HH:mm:ss for the CSV', () => {
    expect(formatDate(instant)).toBe('05/03/2024');
    expect(formatDateTime(instant)).toBe('05/03/2024 07:08:09');
    expect(formatCsvDateTime(instant)).toBe('05/03/24 07:08:09');
    expect(formatCsvDateTime('2009-12-31T23:59:59Z')).toBe('31/12/09 23:59:59');
  });
  it('takes From as the start and To as the end of the picked day', () => {
    expect(startOfDayUtc('2024-02-29').toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(endOfDayUtc('2024-02-29').toISOString()).toBe('2024-02-29T23:59:59.999Z');
    expect(() => startOfDayUtc('2024-02-30')).toThrow(RangeError);
  });
  it('checks the yyyy-mm-dd format', () => {
    expect(isDateInput('2024-03-01')).toBe(true);
    expect(isDateInput('2023-02-29')).toBe(false);
    expect(isDateInput('01/03/2024')).toBe(false);
    expect(isDateInput('')).toBe(false);
    expect(toDateInput(instant)).toBe('2024-03-05');
  });
  it('defaults to the first and last day of the current month', () => {
    expect(currentMonth(new Date('2024-02-10T12:00:00Z'))).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(currentMonth(new Date('2023-12-31T23:59:59Z'))).toEqual({ from: '2023-12-01', to: '2023-12-31' });
    expect(currentMonth(new Date('2025-01-01T00:00:00Z'))).toEqual({ from: '2025-01-01', to: '2025-01-31' });
  });
});
