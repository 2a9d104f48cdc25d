import { randomUUID } from 'node:crypto';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { playbackKeyRoutes } from '@streamcloud/contract';
import { mintPlaybackToken } from '@streamcloud/playback-tokens/mint';
import { apiLogin, createAccount, loginViaUi } from '../support/accounts';
import { api } from '../support/api';
import { createStreamInConsole, pushTestPattern, useLocalMediaNode } from '../support/media';
import { addViewerInConsole, apiCreateOutput } from '../support/streams';

// The embeddable player page (issue 37) against a real media node: /play/{id} of a WebRTC output plays over
// WHEP, that of an HLS output over HLS, with no sign-in (Public outputs); a Signed output plays with a playback
// token minted as a customer's backend does (issue 34), and a token for another video shows the node's reason.
test.describe.configure({ timeout: 180_000 });

useLocalMediaNode();

const framesOf = (video: Locator) =>
  video.evaluate((element: HTMLVideoElement) => element.getVideoPlaybackQuality().totalVideoFrames);
const timeOf = (video: Locator) => video.evaluate((element: HTMLVideoElement) => element.currentTime);

/** The id of the stream's first viewer output of `format` (its Viewers card item). */
async function outputId(page: Page, format: string): Promise<string> {
  const viewers = page.getByRole('list', { name: 'Viewers' });
  const item = viewers
    .getByRole('listitem')
    .filter({ has: page.getByText(format, { exact: true }) })
    .first();
  await expect(item).toContainText('<iframe src=');
  return (await item.getAttribute('data-output-id')) ?? '';
}

test('/play/{id} plays a live WebRTC output, then an HLS output', async ({ page, browser, request }) => {
  const account = await createAccount(request);
  await loginViaUi(page, account);
  const { endpoint: pushUrl, streamId } = await createStreamInConsole(page, { caption: 'Embed', format: 'RTMP' });
  const token = await apiLogin(request, { username: account.username, password: account.password });
  const key = await api(request, token).call(playbackKeyRoutes.create, { body: { name: 'shop', algorithm: 'ES256' } });
  const push = pushTestPattern(pushUrl, 'flv', 120);
  const viewer = await browser.newPage();
  try {
    await expect(page.getByTestId('stream-status')).toHaveText('Ingestion', { timeout: 20_000 });
    await addViewerInConsole(page, 'WebRTC');
    await addViewerInConsole(page, 'HLS');

    await viewer.goto(`/play/${await outputId(page, 'WebRTC')}`);
    const video = viewer.getByLabel('Live stream');
    await expect.poll(() => framesOf(video), { timeout: 30_000 }).toBeGreaterThan(10);
    await expect(viewer.getByRole('button', { name: 'Unmute' })).toBeVisible();

    // A Signed output: its token from the page's URL. One for another video is refused with the node's reason.
    const signed = await apiCreateOutput(request, token, streamId, 'WebRTC', { access: 'Signed' });
    const minted = (sub: string) =>
      mintPlaybackToken({ kid: key.kid, privateKeyPem: key.privateKeyPem ?? '' }, { sub });
    await viewer.goto(`/play/${signed.id}?${new URLSearchParams({ token: minted(randomUUID()) })}`);
    await expect(viewer.getByRole('status')).toContainText('The token is not for this video', { timeout: 20_000 });
    await viewer.goto(`/play/${signed.id}?${new URLSearchParams({ token: minted(signed.id) })}`);
    await expect.poll(() => framesOf(video), { timeout: 30_000 }).toBeGreaterThan(10);

    await viewer.goto(`/play/${await outputId(page, 'HLS')}`);
    await expect.poll(() => timeOf(video), { timeout: 30_000 }).toBeGreaterThan(0);
    const played = await timeOf(video);
    await expect.poll(() => timeOf(video), { timeout: 15_000 }).toBeGreaterThan(played);
  } finally {
    push.stop();
  }
  // The push ended: the page says so by itself.
  await expect(viewer.getByRole('status')).toHaveText(/The stream is (offline|starting)|HLS playback failed/, {
    timeout: 60_000,
  });
  await viewer.close();

  const unknown = await request.get('/play/not-an-id');
  expect(unknown.status()).toBe(404);
});
