import { expect, test } from '@playwright/test';
import chromiumArgs from '../chromium-args.json' with { type: 'json' };
import { createAccount, loginViaUi } from '../support/accounts';
import { createStreamInConsole, useLocalMediaNode } from '../support/media';

// The studio against a real media node: Chromium's fake camera and microphone (granted without a prompt)
// go live over WHIP from the dashboard of a WebRTC stream, and Stop ends the push.
test.describe.configure({ timeout: 180_000 });
test.use({
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: [...chromiumArgs, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  },
});

useLocalMediaNode();

test('a WebRTC stream goes live from the studio with the fake camera, and Stop makes it Idle', async ({
  page,
  request,
}) => {
  const account = await createAccount(request);
  await loginViaUi(page, account);
  await createStreamInConsole(page, { caption: 'Studio', format: 'WebRTC', access: 'Private' });

  await page.getByRole('button', { name: 'Go live' }).click();
  const studio = page.getByRole('dialog', { name: 'Studio' });
  const preview = studio.getByLabel('Local preview');
  await expect
    .poll(() => preview.evaluate((video: HTMLVideoElement) => video.videoWidth), { timeout: 15_000 })
    .toBe(1280);
  await expect(studio.getByLabel('Camera')).toContainText(/fake/i);
  await expect
    .poll(() =>
      studio.getByRole('meter', { name: 'Microphone level' }).evaluate((meter: HTMLMeterElement) => meter.value),
    )
    .toBeGreaterThan(0);
  await studio.getByLabel('Resolution').selectOption('360p');
  await expect
    .poll(() => preview.evaluate((video: HTMLVideoElement) => video.videoHeight), { timeout: 15_000 })
    .toBe(360);

  await studio.getByRole('button', { name: 'Go live' }).click();
  await expect(studio.getByRole('status', { name: 'Publishing status' })).toHaveText('Studio: Live', {
    timeout: 20_000,
  });
  await studio.getByLabel('Video bitrate').selectOption('500 kbps');
  await expect(studio.getByRole('status', { name: 'Stream status' })).toHaveText('Stream: Ingestion', {
    timeout: 20_000,
  });
  await expect(page.getByTestId('stream-status')).toHaveText('Ingestion');

  // While live the picture size changes with replaceTrack: the same WHIP session, the stream stays live.
  await studio.getByLabel('Resolution').selectOption('720p');
  await expect
    .poll(() => preview.evaluate((video: HTMLVideoElement) => video.videoHeight), { timeout: 15_000 })
    .toBe(720);
  await expect(studio.getByRole('status', { name: 'Publishing status' })).toHaveText('Studio: Live');
  await expect(studio.getByRole('alert')).toHaveCount(0);
  await expect(page.getByTestId('stream-status')).toHaveText('Ingestion');

  await studio.getByRole('button', { name: 'Stop' }).click();
  await expect(studio.getByRole('status', { name: 'Publishing status' })).toHaveText('Studio: Off air');
  await expect(studio.getByRole('button', { name: 'Turn on camera' })).toBeVisible();
  await expect(studio.getByRole('status', { name: 'Stream status' })).toHaveText('Stream: Idle', { timeout: 20_000 });
  await expect(studio.getByRole('alert')).toHaveCount(0);
  await studio.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('stream-status')).toHaveText('Idle');
  // Stop is the publisher's WHIP DELETE: the stream is Idle without waiting out the reconnect grace.
  await expect(page.getByRole('region', { name: 'Messages' })).toContainText('Push stopped by the publisher');
});
