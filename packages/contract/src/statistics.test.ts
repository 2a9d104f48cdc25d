import { describe, expect, it } from 'vitest';
import { NodeReport } from './node-reports.js';
import {
  inputTypeName,
  METRICS_MAX_POINTS,
  metricStepSeconds,
  StatisticsQuery,
  StreamWindowParams,
  WindowParams,
} from './statistics.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

describe('metricStepSeconds', () => {
  it.each([
    [5 * 60_000, 5],
    [30 * 60_000, 5],
    [3 * HOUR, 15],
    [12 * HOUR, 60],
    [DAY, 120],
    [7 * DAY, 900],
    [30 * DAY, 3600],
    [90 * DAY, 10800],
    [92 * DAY, 10800],
  ])('a window of %i ms has a step of %i s', (span, step) => {
    expect(metricStepSeconds(0, span)).toBe(step);
  });

  it('keeps every window up to 92 days within about 1,000 points', () => {
    for (let span = 60_000; span <= 92 * DAY; span = Math.round(span * 1.37)) {
      expect(span / 1000 / metricStepSeconds(0, span)).toBeLessThanOrEqual(METRICS_MAX_POINTS);
    }
  });
});

describe('window parameters', () => {
  const from = '2024-03-01T00:00:00.000Z';
  it('accepts from = to and a window of exactly 92 days', () => {
    expect(WindowParams.safeParse({ from, to: from }).success).toBe(true);
    expect(WindowParams.safeParse({ from, to: new Date(Date.parse(from) + 92 * DAY).toISOString() }).success).toBe(
      true,
    );
  });
  it('refuses to before from, naming the field and the rule', () => {
    const result = WindowParams.safeParse({ from, to: '2024-02-29T23:59:59.999Z' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['to'], message: 'to must not be before from' });
  });
  it('refuses a window over 92 days', () => {
    const to = new Date(Date.parse(from) + 92 * DAY + 1).toISOString();
    const result = StreamWindowParams.safeParse({ streamId: '3f2b8f0e-8d8a-4f55-9d55-1c3c2f9f0a11', from, to });
    expect(result.error?.issues[0]).toMatchObject({
      path: ['to'],
      message: 'The window from from to to must be at most 92 days',
    });
  });
  it('refuses a timestamp that is not ISO', () => {
    const result = WindowParams.safeParse({ from: '01/03/2024', to: from });
    expect(result.error?.issues[0]).toMatchObject({ path: ['from'], message: 'from must be an ISO timestamp' });
  });
});

describe('statistics query', () => {
  it('accepts a comma-separated metric list and refuses per-stream names on the many-stream call', () => {
    expect(StatisticsQuery.safeParse({ metrics: 'IncomingTotal,ViewersTotal' }).success).toBe(true);
    expect(StatisticsQuery.safeParse({ metrics: 'IncomingRTT' }).success).toBe(false);
    expect(StatisticsQuery.safeParse({ protocol: 'InputRTMP', processing: 'Passthrough' }).success).toBe(true);
    expect(StatisticsQuery.safeParse({ protocol: 'RTMP' }).success).toBe(false);
  });
  it('names input types INPUT:<format>', () => {
    expect(inputTypeName('InputRTMP')).toBe('INPUT:RTMP');
    expect(inputTypeName('InputWebRTC')).toBe('INPUT:WebRTC');
  });
});

describe('usage and metrics reports', () => {
  const streamId = '3f2b8f0e-8d8a-4f55-9d55-1c3c2f9f0a11';
  it('accepts a usage report and defaults a traffic duration to 0', () => {
    const parsed = NodeReport.parse({
      id: 'u1',
      kind: 'usage',
      streamId,
      incoming: [{ sessionId: 's', startedAt: '2024-03-01T10:00:00Z', duration: 5, upload: 1000, download: 10 }],
      outgoing: { upload: 1, download: 2 },
    });
    expect(parsed).toMatchObject({ outgoing: { duration: 0, upload: 1, download: 2 } });
  });
  it('refuses negative bytes and the derived totals from a node', () => {
    expect(
      NodeReport.safeParse({ id: 'u', kind: 'usage', streamId, internode: { upload: -1, download: 0 } }).success,
    ).toBe(false);
    expect(
      NodeReport.safeParse({ id: 'm', kind: 'metrics', streams: [{ streamId, values: { OutgoingBitrateTotal: 1 } }] })
        .success,
    ).toBe(false);
    expect(
      NodeReport.safeParse({
        id: 'm',
        kind: 'metrics',
        streams: [{ streamId, sessions: 3, values: { IncomingBitrate: 1e6 } }],
      }).success,
    ).toBe(true);
  });
});
