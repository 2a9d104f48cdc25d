import { errorResponse, jsonResponse } from '@streamcloud/api-client/testing';
import type { ViewerAnalytics, ViewerSessionDetail, ViewerSessionSummary } from '@streamcloud/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { renderPiece } from '@/test/render-piece';
import { qualityRule } from '@/test/stream-fixtures';
import { AccountAnalyticsScreen } from './account-analytics-screen';
import { StreamAnalyticsCard } from './stream-analytics-card';

const STREAM = '11111111-1111-4111-8111-111111111111';
const SESSION = '22222222-2222-4222-8222-222222222222';

const analytics = (overrides: Partial<ViewerAnalytics> = {}): ViewerAnalytics => ({
  from: '2026-11-28T12:00:00.000Z',
  to: '2026-11-29T12:00:00.000Z',
  viewers: 2,
  previews: 1,
  watchMs: 12_000,
  rebufferCount: 1,
  rebufferRatio: 1000 / 13_000,
  errorRate: 0.5,
  startupMs: { median: 200, p95: 290 },
  ttffMs: { median: 700, p95: 1880 },
  latencyMs: { median: 1200, p95: null },
  breakdowns: {
    country: [
      { value: 'DE', viewers: 1, watchMs: 3000, rebufferRatio: 0 },
      { value: 'unknown', viewers: 1, watchMs: 9000, rebufferRatio: 0.1 },
    ],
    browser: [{ value: 'Firefox', viewers: 2, watchMs: 12_000, rebufferRatio: 0.077 }],
    device: [],
    rendition: [{ value: '720p', viewers: 1, watchMs: 9000, rebufferRatio: 0.1 }],
  },
  ...overrides,
});

const session: ViewerSessionSummary = {
  id: SESSION,
  streamId: STREAM,
  outputId: '33333333-3333-4333-8333-333333333333',
  player: 'embed',
  startedAt: '2026-11-29T11:00:00.000Z',
  lastSeenAt: '2026-11-29T11:00:20.000Z',
  browser: 'Firefox',
  os: 'Linux',
  device: 'desktop',
  country: 'DE',
  startupMs: 300,
  ttffMs: 900,
  watchMs: 19_000,
  rebufferCount: 1,
  rebufferMs: 1000,
  errors: 0,
  latencyMs: 1200,
  rendition: '1080p',
};
const detail: ViewerSessionDetail = {
  ...session,
  timeline: [
    { at: '2026-11-29T11:00:00.900Z', type: 'startup', value: 900, detail: 'startup 300 ms' },
    { at: '2026-11-29T11:00:06.000Z', type: 'rebuffer', value: 1000, detail: null },
  ],
};

/** A figure's value, by its term. */
const figure = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;

describe('Stream analytics card', () => {
  const render = (answer = () => jsonResponse(analytics())) =>
    renderPiece(<StreamAnalyticsCard streamId={STREAM} />, {
      [`GET /api/v1/inputs/${STREAM}/analytics`]: answer,
      [`GET /api/v1/inputs/${STREAM}/analytics/sessions`]: () => jsonResponse({ sessions: [session] }),
      [`GET /api/v1/analytics/sessions/${SESSION}`]: () => jsonResponse(detail),
      [`GET /api/v1/inputs/${STREAM}/quality-rule`]: () => jsonResponse(qualityRule(STREAM)),
    });

  it("shows the window's figures and breakdowns, over the last 24 hours by default", async () => {
    const { mock } = render();
    await screen.findByText('Viewers', { selector: 'dt' });
    expect(figure('Viewers')).toBe('2');
    expect(figure('Watch time')).toBe('00:00:12');
    expect(figure('Time to first frame (median / p95)')).toBe('700 ms / 1.9 s');
    expect(figure('Rebuffer ratio')).toBe('7.7 %');
    expect(figure('Error rate')).toBe('50.0 %');
    expect(figure('Latency to live (median / p95)')).toBe('1.2 s / —');
    const countries = screen.getByRole('table', { name: 'By country' });
    expect(
      within(countries)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['CountryViewersWatch timeRebuffer ratio', 'DE100:00:030.0 %', 'unknown100:00:0910.0 %']);
    const asked = mock.requests.find((request) => request.url.pathname.endsWith('/analytics'));
    const from = Date.parse(asked?.url.searchParams.get('from') ?? '');
    const to = Date.parse(asked?.url.searchParams.get('to') ?? '');
    expect(to - from).toBe(24 * 3600_000);
  });

  it('asks again for the window picked', async () => {
    const { mock, user } = render();
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Window' }), 'Last hour');
    await waitFor(() => {
      const last = mock.requests.filter((request) => request.url.pathname.endsWith('/analytics')).at(-1);
      const span =
        Date.parse(last?.url.searchParams.get('to') ?? '') - Date.parse(last?.url.searchParams.get('from') ?? '');
      expect(span).toBe(3600_000);
    });
  });

  it("lists the playback sessions and opens one's timeline", async () => {
    const { user } = render();
    const row = (await screen.findByText('Firefox · Linux · desktop')).closest('tr');
    expect(row?.textContent).toContain('900 ms');
    await user.click(within(row as HTMLElement).getByRole('button', { name: /^Timeline of the session started/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Timeline' });
    const events = await within(dialog).findAllByRole('listitem');
    expect(events.map((event) => event.textContent?.replace(/^.*?Z?\d{2}:\d{2}:\d{2}/, ''))).toEqual([
      'startup 900 ms (startup 300 ms)',
      'rebuffer 1.0 s',
    ]);
  });

  it("says why the analytics could not be loaded (role alert), in the server's words", async () => {
    render(() => errorResponse(404, 'Stream not found'));
    expect((await screen.findByRole('alert')).textContent).toBe('Stream not found');
  });
});

describe('Account analytics screen', () => {
  it("shows the account's figures", async () => {
    renderPiece(<AccountAnalyticsScreen />, { 'GET /api/v1/analytics': () => jsonResponse(analytics()) });
    expect(await screen.findByRole('heading', { name: 'Viewer analytics' })).toBeInstanceOf(HTMLElement);
    await screen.findByText('Viewers', { selector: 'dt' });
    expect(figure('Previews')).toBe('1');
    expect(screen.getByRole('table', { name: 'By rendition' }).textContent).toContain('720p');
  });

  it('says when no viewer has reported yet', async () => {
    renderPiece(<AccountAnalyticsScreen />, {
      'GET /api/v1/analytics': () => jsonResponse(analytics({ viewers: 0, previews: 0 })),
    });
    expect(await screen.findByText('No viewer has reported in this window yet.')).toBeInstanceOf(HTMLElement);
  });
});
