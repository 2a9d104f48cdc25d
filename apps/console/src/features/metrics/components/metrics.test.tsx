import { createApiClient } from '@streamcloud/api-client';
import { type Handler, jsonResponse, type RecordedRequest } from '@streamcloud/api-client/testing';
import type { InputFormat, MetricsResponse } from '@streamcloud/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dashboardMetricsQueryOptions } from '@/data/metrics/dashboard-metrics';
import { streamMetricsQueryOptions } from '@/data/metrics/stream-metrics';
import { renderAsUser } from '@/test/render-app';
import { renderPiece } from '@/test/render-piece';
import { StreamMetricsPanel } from './stream-metrics-panel';
import { alignSeries, legendOf } from './time-series-chart';

const NOW = Date.parse('2024-03-10T12:00:00.000Z');
const STREAM = '11111111-1111-4111-8111-111111111111';
const enc = encodeURIComponent;
const iso = (ms: number) => new Date(ms).toISOString();
const windowPath = (from: number | string, to: number | string, stream?: string) =>
  `/api/v1/statistics/stream/${stream ? `${stream}/` : ''}from/${enc(typeof from === 'string' ? from : iso(from))}/to/${enc(typeof to === 'string' ? to : iso(to))}`;

const t0 = NOW / 1000 - 120;
const dashboardAnswer = (request: RecordedRequest): Response => {
  const names = (request.url.searchParams.get('metrics') ?? '').split(',');
  const result: MetricsResponse['result'] = [];
  for (const name of names) {
    if (name === 'IncomingTotal')
      result.push({
        metric: { labels: { name } },
        values: [
          [t0, 3e6],
          [t0 + 60, 5e6],
          [t0 + 120, 4e6],
        ],
      });
    if (name === 'IncomingByOutputType') {
      result.push({ metric: { labels: { name: 'INPUT:RTMP' } }, values: [[t0, 2e6]] });
      result.push({ metric: { labels: { name: 'INPUT:WebRTC' } }, values: [[t0, 1e6]] });
    }
    if (name === 'ViewersTotal')
      result.push({
        metric: { labels: { name } },
        values: [
          [t0, 3],
          [t0 + 60, 8],
        ],
      });
  }
  return jsonResponse({ result });
};

// The fake canvas charts draw on comes from src/test/setup.ts.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
});

const metricCalls = (requests: RecordedRequest[]) =>
  requests.filter((request) => request.url.pathname.startsWith('/api/v1/statistics'));

describe('metrics dashboard', () => {
  function dashboard(handlers: Record<string, Handler> = {}) {
    return renderAsUser('/metrics', {
      [`GET ${windowPath(NOW - 12 * 3600_000, NOW)}`]: dashboardAnswer,
      ...handlers,
    });
  }

  it('loads the last 12 hours on opening: Incoming and Viewers with each name, current and max', async () => {
    const { mock } = dashboard();
    await screen.findByRole('heading', { level: 1, name: 'Metrics' });
    expect((screen.getByLabelText('Preset') as HTMLSelectElement).value).toBe('720');
    const incoming = await screen.findByRole('table', { name: 'Incoming legend' });
    within(incoming).getByRole('row', { name: 'IncomingTotal 4 mbps 5 mbps' });
    const viewers = screen.getByRole('table', { name: 'Viewers legend' });
    within(viewers).getByRole('row', { name: 'ViewersTotal 8 8' });
    expect(metricCalls(mock.requests)[0]?.url.searchParams.get('metrics')).toBe('IncomingTotal,ViewersTotal');
  });

  it('shows a loading indicator until data arrives', async () => {
    let release: () => void = () => undefined;
    dashboard({
      [`GET ${windowPath(NOW - 12 * 3600_000, NOW)}`]: (request) =>
        new Promise((resolve) => {
          release = () => resolve(dashboardAnswer(request));
        }),
    });
    expect((await screen.findAllByText('Loading...')).length).toBe(2);
    release();
    await screen.findByRole('table', { name: 'Incoming legend' });
    expect(screen.queryByText('Loading...')).toBeNull();
  });

  it('Detailed switches the incoming series to one per input type', async () => {
    const { mock, user } = dashboard();
    await screen.findByRole('table', { name: 'Incoming legend' });
    await user.click(screen.getByRole('radio', { name: 'Detailed' }));
    const incoming = await screen.findByRole('table', { name: 'Incoming legend' });
    await waitFor(() => within(incoming).getByRole('row', { name: /^INPUT:RTMP 2 mbps/ }));
    within(incoming).getByRole('row', { name: /^INPUT:WebRTC 1 mbps/ });
    expect(metricCalls(mock.requests).at(-1)?.url.searchParams.get('metrics')).toBe(
      'IncomingByOutputType,ViewersTotal',
    );
  });

  it('a preset clears the custom dates and loads its window', async () => {
    const { mock, user } = dashboard({
      [`GET ${windowPath(NOW - 7 * 86_400_000, NOW)}`]: dashboardAnswer,
      [`GET ${windowPath('2024-03-01T00:00:00.000Z', '2024-03-01T23:59:59.999Z')}`]: dashboardAnswer,
    });
    await screen.findByRole('table', { name: 'Incoming legend' });
    await user.type(screen.getByLabelText('From'), '2024-03-01');
    expect((screen.getByLabelText('To') as HTMLInputElement).value).toBe('2024-03-01');
    await waitFor(() =>
      expect(metricCalls(mock.requests).at(-1)?.url.pathname).toBe(
        windowPath('2024-03-01T00:00:00.000Z', '2024-03-01T23:59:59.999Z'),
      ),
    );
    await user.selectOptions(screen.getByLabelText('Preset'), 'Last 7 days');
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('To') as HTMLInputElement).value).toBe('');
    await waitFor(() =>
      expect(metricCalls(mock.requests).at(-1)?.url.pathname).toBe(windowPath(NOW - 7 * 86_400_000, NOW)),
    );
  });

  it('picking To fills From by the preset back from the end of that day', async () => {
    const { mock, user } = dashboard({
      [`GET ${windowPath('2024-03-05T00:00:00.000Z', '2024-03-05T23:59:59.999Z')}`]: dashboardAnswer,
    });
    await screen.findByRole('table', { name: 'Incoming legend' });
    await user.type(screen.getByLabelText('To'), '2024-03-05');
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('2024-03-05');
    await waitFor(() =>
      expect(metricCalls(mock.requests).at(-1)?.url.pathname).toBe(
        windowPath('2024-03-05T00:00:00.000Z', '2024-03-05T23:59:59.999Z'),
      ),
    );
  });

  it('refreshes every 60 s', () => {
    const api = createApiClient({ apiBase: '/api/v1', fetch: vi.fn(), getToken: () => null });
    const options = dashboardMetricsQueryOptions(api, {
      preset: 720,
      dates: { from: '', to: '' },
      metrics: ['IncomingTotal'],
    });
    expect(options.refetchInterval).toBe(60_000);
  });
});

describe('stream metrics panel', () => {
  const VALUES: Record<string, number> = { IncomingRTT: 40, IncomingPacketsSent: 120, IncomingPacketsLost: 1.5 };
  function panel(compact: boolean, minutes: number, format: InputFormat = 'WebRTC') {
    return renderPiece(<StreamMetricsPanel streamId={STREAM} format={format} compact={compact} />, {
      [`GET ${windowPath(NOW - minutes * 60_000, NOW, STREAM)}`]: (request) => {
        const names = (request.url.searchParams.get('metrics') ?? '').split(',');
        return jsonResponse({
          result: names.flatMap((name) =>
            name === 'ConcurrentViewers'
              ? [
                  { metric: { labels: { name, location: 'EU' } }, values: [[t0, 2]] },
                  { metric: { labels: { name, location: 'NA' } }, values: [[t0, 5]] },
                ]
              : [{ metric: { labels: { name } }, values: [[t0, VALUES[name] ?? 2e6]] }],
          ),
        });
      },
    });
  }
  const lastMetrics = (requests: RecordedRequest[]) => metricCalls(requests).at(-1)?.url.searchParams.get('metrics');

  it('compact: the last 5 minutes, incoming, viewers and outgoing on, the rest off', async () => {
    const { mock } = panel(true, 5);
    expect((screen.getByLabelText('Duration') as HTMLSelectElement).value).toBe('5');
    for (const name of ['Incoming bitrate', 'Viewers', 'Outgoing bitrate']) {
      expect((screen.getByRole('checkbox', { name }) as HTMLInputElement).checked).toBe(true);
    }
    for (const name of ['Packets sent', 'Packets lost', 'Packets retransmitted', 'Packets dropped', 'RTT']) {
      expect((screen.getByRole('checkbox', { name }) as HTMLInputElement).checked).toBe(false);
    }
    await screen.findByRole('table', { name: 'Incoming bitrate legend' });
    expect(lastMetrics(mock.requests)).toBe('IncomingTotal,ConcurrentViewersTotal,OutgoingBitrateTotal');
    expect(screen.getByRole('link', { name: 'Full view' }).getAttribute('href')).toBe(`/streams/metrics/${STREAM}`);
  });

  it('reloads when a chart is toggled, Detailed is chosen or the duration changes', async () => {
    const { mock, user } = panel(false, 30);
    await screen.findByRole('table', { name: 'Viewers legend' });
    await user.click(screen.getByRole('checkbox', { name: 'RTT' }));
    await waitFor(() =>
      expect(lastMetrics(mock.requests)).toBe('IncomingTotal,ConcurrentViewersTotal,OutgoingBitrateTotal,IncomingRTT'),
    );
    await screen.findByRole('row', { name: 'IncomingRTT 40 ms 40 ms' });
    await user.click(screen.getByRole('checkbox', { name: 'Outgoing bitrate' }));
    await waitFor(() => expect(lastMetrics(mock.requests)).toBe('IncomingTotal,ConcurrentViewersTotal,IncomingRTT'));
    expect(screen.queryByRole('figure', { name: 'Outgoing bitrate' })).toBeNull();
    await user.click(screen.getByRole('radio', { name: 'Detailed' }));
    await waitFor(() => expect(lastMetrics(mock.requests)).toBe('IncomingBitrate,ConcurrentViewers,IncomingRTT'));
    const viewers = await screen.findByRole('table', { name: 'Viewers legend' });
    await waitFor(() => within(viewers).getByRole('row', { name: 'ConcurrentViewers (NA) 5 5' }));
    mock.on(`GET ${windowPath(NOW - 60 * 60_000, NOW, STREAM)}`, () => jsonResponse({ result: [] }));
    await user.selectOptions(screen.getByLabelText('Duration'), '1 hour');
    await waitFor(() =>
      expect(metricCalls(mock.requests).at(-1)?.url.pathname).toBe(windowPath(NOW - 3600_000, NOW, STREAM)),
    );
  });

  const showTransportCharts = async (user: ReturnType<typeof panel>['user']) => {
    await screen.findByRole('table', { name: 'Viewers legend' });
    for (const name of ['Packets sent', 'Packets lost', 'Packets retransmitted', 'Packets dropped', 'RTT'])
      await user.click(screen.getByRole('checkbox', { name }));
  };

  it('WebRTC: packets sent, lost and RTT are charted; retransmitted and dropped are not measured', async () => {
    const { mock, user } = panel(false, 30, 'WebRTC');
    await showTransportCharts(user);
    await waitFor(() =>
      expect(lastMetrics(mock.requests)).toBe(
        'IncomingTotal,ConcurrentViewersTotal,OutgoingBitrateTotal,IncomingPacketsSent,IncomingPacketsLost,IncomingRTT',
      ),
    );
    const sent = await screen.findByRole('table', { name: 'Packets sent legend' });
    expect(within(sent).queryByRole('row', { name: 'IncomingPacketsSent 120/s 120/s' })).not.toBeNull();
    await screen.findByRole('row', { name: 'IncomingPacketsLost 1.5/s 1.5/s' });
    await screen.findByRole('row', { name: 'IncomingRTT 40 ms 40 ms' });
    for (const name of ['Packets retransmitted', 'Packets dropped']) {
      const figure = screen.getByRole('figure', { name });
      expect(within(figure).queryByText('Not measured for WebRTC pushes')).not.toBeNull();
      expect(within(figure).queryByRole('table')).toBeNull();
    }
  });

  it('RTMP: every packet chart and RTT say "Not measured for RTMP pushes" and are not asked for', async () => {
    const { mock, user } = panel(false, 30, 'RTMP');
    await showTransportCharts(user);
    for (const name of ['Packets sent', 'Packets lost', 'Packets retransmitted', 'Packets dropped', 'RTT']) {
      const figure = screen.getByRole('figure', { name });
      expect(within(figure).queryByText('Not measured for RTMP pushes')).not.toBeNull();
    }
    expect(screen.getAllByText('Not measured for RTMP pushes')).toHaveLength(5);
    for (const request of metricCalls(mock.requests))
      expect(request.url.searchParams.get('metrics')).toBe('IncomingTotal,ConcurrentViewersTotal,OutgoingBitrateTotal');
    expect((await screen.findByRole('table', { name: 'Incoming bitrate legend' })).tagName).toBe('TABLE');
  });

  it('SRT: retransmitted packets are charted too; dropped ones are not measured', async () => {
    const { mock, user } = panel(false, 30, 'SRT');
    await showTransportCharts(user);
    await waitFor(() => expect(lastMetrics(mock.requests)).toContain('IncomingPacketsRetrans'));
    expect(lastMetrics(mock.requests)).not.toContain('IncomingPacketsDropped');
    await screen.findByRole('table', { name: 'Packets retransmitted legend' });
    expect(
      within(screen.getByRole('figure', { name: 'Packets dropped' })).queryByText('Not measured for SRT pushes'),
    ).not.toBeNull();
  });

  it('refreshes every 10 s', () => {
    const api = createApiClient({ apiBase: '/api/v1', fetch: vi.fn(), getToken: () => null });
    expect(streamMetricsQueryOptions(api, STREAM, { minutes: 5, metrics: ['IncomingTotal'] }).refetchInterval).toBe(
      10_000,
    );
  });
});

describe('chart data', () => {
  it('aligns series on one time axis with gaps, and tells current and max', () => {
    const series = [
      {
        label: 'a',
        values: [
          [10, 1],
          [20, 3],
        ] as [number, number][],
      },
      {
        label: 'b',
        values: [
          [20, 5],
          [30, 2],
        ] as [number, number][],
      },
    ];
    expect(alignSeries(series)).toEqual([
      [10, 20, 30],
      [1, 3, null],
      [null, 5, 2],
    ]);
    expect(legendOf(series)).toEqual([
      { label: 'a', current: 3, max: 3 },
      { label: 'b', current: 2, max: 5 },
    ]);
    expect(legendOf([{ label: 'c', values: [] }])).toEqual([{ label: 'c', current: null, max: null }]);
  });
});
