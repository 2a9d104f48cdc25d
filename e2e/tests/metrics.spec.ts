import { expect, type Page, test } from '@playwright/test';
import { apiLogin, createAccount, loginViaUi, type TestAccount } from '../support/accounts';
import { apiCreateInput } from '../support/streams';
import { createUsageNode, dateInput, sendReports } from '../support/usage';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Ten minutes of samples, every 10 s, up to now: an SRT stream at 2 mbps with 3 viewers, 3 mbps out and
 * 40 ms RTT (SRT pushes have their packets and RTT measured), and a WebRTC stream at 1 mbps, both on an EU node.
 */
async function reportSamples(
  request: Parameters<typeof createAccount>[0],
): Promise<{ user: TestAccount; srt: string }> {
  const user = await createAccount(request);
  const token = await apiLogin(request, { username: user.username, password: user.password });
  const node = await createUsageNode(request, 'metrics');
  const srt = (await apiCreateInput(request, token, { format: 'SRT', caption: 'Metrics SRT' })).id;
  const webrtc = (await apiCreateInput(request, token, { format: 'WebRTC', caption: 'Metrics WebRTC' })).id;
  const now = Date.now();
  const reports = Array.from({ length: 60 }, (_, index) => ({
    id: `${srt}-${index}`,
    kind: 'metrics' as const,
    at: iso(now - (60 - index) * 10_000),
    streams: [
      {
        streamId: srt,
        sessions: 4,
        values: {
          IncomingBitrate: 2e6,
          ConcurrentViewers: 3,
          OutgoingBitrate: 3e6,
          IncomingRTT: 40,
          IncomingPacketsLost: 1,
        },
      },
      { streamId: webrtc, sessions: 1, values: { IncomingBitrate: 1e6 } },
    ],
  }));
  await sendReports(request, node, reports);
  return { user, srt };
}

const legend = (page: Page, chart: string) => page.getByRole('table', { name: `${chart} legend` });
const spanOf = (url: string) => {
  const match = /\/from\/([^/]+)\/to\/([^/?]+)/.exec(url);
  if (!match) throw new Error(`no window in ${url}`);
  return Date.parse(decodeURIComponent(match[2] as string)) - Date.parse(decodeURIComponent(match[1] as string));
};

test('metrics dashboard: totals and input types, presets, and one date filling the other', async ({
  page,
  request,
}) => {
  const { user } = await reportSamples(request);
  await loginViaUi(page, user);
  const opened = page.waitForRequest((req) => req.url().includes('/api/v1/statistics/stream/from/'));
  await page.getByRole('navigation').getByRole('link', { name: 'Metrics', exact: true }).click();
  expect(spanOf((await opened).url())).toBe(12 * 60 * MINUTE);
  await expect(page.getByRole('heading', { level: 1, name: 'Metrics' })).toBeVisible();
  await expect(page.getByLabel('Preset', { exact: true })).toHaveValue('720');
  await expect(page.getByLabel('Preset', { exact: true }).locator('option:checked')).toHaveText('Last 12 hours');
  await expect(legend(page, 'Incoming').getByRole('row', { name: 'IncomingTotal 3 mbps 3 mbps' })).toBeVisible();
  await expect(legend(page, 'Viewers').getByRole('row', { name: 'ViewersTotal 3 3' })).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Incoming' }).locator('canvas')).toHaveCount(1);

  await page.getByRole('group', { name: 'Incoming series' }).getByText('Detailed', { exact: true }).click();
  await expect(legend(page, 'Incoming').getByRole('row', { name: 'INPUT:SRT 2 mbps 2 mbps' })).toBeVisible();
  await expect(legend(page, 'Incoming').getByRole('row', { name: 'INPUT:WebRTC 1 mbps 1 mbps' })).toBeVisible();

  const thirtyMinutes = page.waitForRequest((req) => req.url().includes('/api/v1/statistics/stream/from/'));
  await page.getByLabel('Preset', { exact: true }).selectOption({ label: 'Last 30 minutes' });
  expect(spanOf((await thirtyMinutes).url())).toBe(30 * MINUTE);
  await expect(legend(page, 'Incoming').getByRole('row', { name: /^INPUT:SRT 2 mbps/ })).toBeVisible();

  // One picked date fills the other by the preset: 7 days back from the end of the picked To day.
  await page.getByLabel('Preset', { exact: true }).selectOption({ label: 'Last 7 days' });
  const today = dateInput(Date.now());
  const custom = page.waitForRequest((req) =>
    req.url().includes(`/to/${encodeURIComponent(`${today}T23:59:59.999Z`)}`),
  );
  await page.getByLabel('To', { exact: true }).fill(today);
  await expect(page.getByLabel('From', { exact: true })).toHaveValue(dateInput(Date.parse(today) - 6 * DAY));
  expect(spanOf((await custom).url())).toBe(7 * DAY - 1);
  await expect(legend(page, 'Incoming').getByRole('row', { name: /^INPUT:SRT 2 mbps/ })).toBeVisible();

  // A preset clears the custom dates.
  await page.getByLabel('Preset', { exact: true }).selectOption({ label: 'Last 24 hours' });
  await expect(page.getByLabel('From', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('To', { exact: true })).toHaveValue('');
  await page.getByLabel('From', { exact: true }).fill(today);
  await expect(page.getByLabel('To', { exact: true })).toHaveValue(today);
});

test('stream metrics panel: default charts, toggles, Detailed, duration, and charts that follow their width', async ({
  page,
  request,
}) => {
  const { user, srt } = await reportSamples(request);
  await loginViaUi(page, user);
  await page.goto(`/#/streams/metrics/${srt}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Stream metrics' })).toBeVisible();
  const panel = page.getByRole('region', { name: 'Stream metrics' });
  await expect(panel.getByLabel('Duration', { exact: true })).toHaveValue('30');
  for (const name of ['Incoming bitrate', 'Viewers', 'Outgoing bitrate']) {
    await expect(panel.getByRole('checkbox', { name })).toBeChecked();
    await expect(panel.getByRole('figure', { name })).toBeVisible();
  }
  for (const name of ['Packets sent', 'Packets lost', 'Packets retransmitted', 'Packets dropped', 'RTT']) {
    await expect(panel.getByRole('checkbox', { name })).not.toBeChecked();
    await expect(panel.getByRole('figure', { name })).toHaveCount(0);
  }
  await expect(
    legend(page, 'Incoming bitrate').getByRole('row', { name: 'IncomingTotal 2 mbps 2 mbps' }),
  ).toBeVisible();
  await expect(legend(page, 'Viewers').getByRole('row', { name: 'ConcurrentViewersTotal 3 3' })).toBeVisible();
  await expect(
    legend(page, 'Outgoing bitrate').getByRole('row', { name: 'OutgoingBitrateTotal 3 mbps 3 mbps' }),
  ).toBeVisible();

  await panel.getByRole('checkbox', { name: 'RTT' }).click();
  await expect(legend(page, 'RTT').getByRole('row', { name: 'IncomingRTT (EU) 40 ms 40 ms' })).toBeVisible();
  await panel.getByRole('checkbox', { name: 'Packets lost' }).click();
  await expect(
    legend(page, 'Packets lost').getByRole('row', { name: 'IncomingPacketsLost (EU) 1/s 1/s' }),
  ).toBeVisible();
  // SRT exposes no dropped packets: the chart says so instead of staying empty.
  await panel.getByRole('checkbox', { name: 'Packets dropped' }).click();
  await expect(panel.getByRole('figure', { name: 'Packets dropped' })).toHaveText(/Not measured for SRT pushes/);
  await panel.getByRole('checkbox', { name: 'Packets dropped' }).click();
  await panel.getByRole('checkbox', { name: 'Viewers' }).click();
  await expect(panel.getByRole('figure', { name: 'Viewers' })).toHaveCount(0);

  await panel.getByRole('group', { name: 'Series' }).getByText('Detailed', { exact: true }).click();
  await expect(
    legend(page, 'Incoming bitrate').getByRole('row', { name: 'IncomingBitrate (EU) 2 mbps 2 mbps' }),
  ).toBeVisible();
  await expect(
    legend(page, 'Outgoing bitrate').getByRole('row', { name: 'OutgoingBitrate (EU) 3 mbps 3 mbps' }),
  ).toBeVisible();

  const fiveMinutes = page.waitForRequest((req) => req.url().includes(`/api/v1/statistics/stream/${srt}/`));
  await panel.getByLabel('Duration', { exact: true }).selectOption({ label: '5 minutes' });
  expect(spanOf((await fiveMinutes).url())).toBe(5 * MINUTE);

  const chart = panel.getByRole('figure', { name: 'Incoming bitrate' }).locator('.uplot');
  // The duration change redraws the chart: measure it once it is back.
  await expect(chart).toBeVisible();
  await expect.poll(async () => (await chart.boundingBox())?.width ?? 0).toBeGreaterThan(0);
  const wide = (await chart.boundingBox())?.width ?? 0;
  await page.setViewportSize({ width: 700, height: 800 });
  await expect.poll(async () => (await chart.boundingBox())?.width ?? 0).toBeLessThan(wide);
});
