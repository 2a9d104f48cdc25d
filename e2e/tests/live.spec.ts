import { expect, type Page, test } from '@playwright/test';
import { snapshotRoutes } from '@streamcloud/contract';
import { apiLogin, createAccount, loginViaUi } from '../support/accounts';
import { api } from '../support/api';
import { createStreamInConsole, pushTestPattern, runTool, useLocalMediaNode } from '../support/media';
import { addViewerInConsole } from '../support/streams';

// A real media node on loopback and ffmpeg's test pattern: nothing here is reported by the test itself.
test.describe.configure({ timeout: 180_000 });

const legend = (page: Page, chart: string) => page.getByRole('table', { name: `${chart} legend` });

const node = useLocalMediaNode();

test('a stream pushed with ffmpeg to the shown URL goes live: Ingestion, snapshot, bitrate, HLS, Idle, billing', async ({
  page,
  request,
}) => {
  const account = await createAccount(request);
  const token = await apiLogin(request, { username: account.username, password: account.password });
  await loginViaUi(page, account);

  // Created in the console, from where the streamer is: it lands on the node there.
  const { endpoint: pushUrl, streamId } = await createStreamInConsole(page, {
    caption: 'Live pattern',
    format: 'RTMP',
  });
  expect(pushUrl).toMatch(new RegExp(`^rtmp://127\\.0\\.0\\.1:${node().rtmpPort}/live/in%2B[0-9a-f-]{36}$`));

  await api(request, token).call(snapshotRoutes.update, {
    params: { streamId, direction: 'incoming' },
    body: { format: 'JPEG', quality: 'Low', interval: 1 },
  });

  const push = pushTestPattern(pushUrl, 'flv', 120);
  try {
    await expect(page.getByTestId('stream-status')).toHaveText('Ingestion', { timeout: 20_000 });
    await expect(page.getByRole('note', { name: 'Stream status' })).toContainText(/live/);
    await expect(page.getByRole('region', { name: 'Messages' })).toContainText(/Push started over RTMP/);

    const preview = page.getByRole('img', { name: 'Incoming snapshot' });
    await expect(preview).toBeVisible({ timeout: 20_000 });
    await expect.poll(() => preview.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(320);

    await expect(
      legend(page, 'Incoming bitrate').getByRole('row', { name: /^IncomingTotal [1-9][\d.]* [kmg]?bps/ }),
    ).toBeVisible({ timeout: 30_000 });

    // A viewer output in HLS: the endpoint the card shows plays.
    const viewers = await addViewerInConsole(page, 'HLS');
    const hls = viewers.getByText(/^http:\/\/127\.0\.0\.1:\d+\/hls\/.+\.m3u8$/);
    await expect(hls).toBeVisible();
    const probe = await runTool(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'stream=codec_name,width', '-of', 'csv=p=0', (await hls.textContent()) ?? ''],
      20_000,
    );
    expect(probe.stdout, probe.stderr).toContain('h264,320');
    await expect(viewers.getByRole('listitem')).toContainText('1 session', { timeout: 15_000 });
  } finally {
    push.stop();
  }

  // The push ends: Idle once the reconnect grace is over.
  await expect(page.getByTestId('stream-status')).toHaveText('Idle', { timeout: 20_000 });
  await expect(page.getByRole('region', { name: 'Messages' })).toContainText('Push ended');

  // Billing for the window shows the push: its duration on the page, its bytes in the report it shows.
  // The usage report, not a refresh of the dashboard's charts (the same route with `?metrics=`) that may
  // answer while the link is being clicked.
  const report = page.waitForResponse((response) => {
    const url = new URL(response.url());
    return url.pathname.includes(`/api/v1/statistics/stream/${streamId}/`) && !url.searchParams.has('metrics');
  });
  await page.getByRole('toolbar', { name: 'Stream actions' }).getByRole('link', { name: 'Billing' }).click();
  const usage = (await (await report).json()) as { streams: { incoming: { upload: number; duration: number }[] }[] };
  const incoming = usage.streams[0]?.incoming ?? [];
  expect(incoming.reduce((sum, session) => sum + session.upload, 0)).toBeGreaterThan(100_000);
  await expect(
    page
      .getByRole('region', { name: 'Usage report' })
      .getByRole('table', { name: 'Usage totals' })
      .getByRole('row', { name: /^Incoming (?!00:00:00)\d\d:\d\d:\d\d / }),
  ).toBeVisible();
});
