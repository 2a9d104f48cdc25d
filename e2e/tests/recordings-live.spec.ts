import { expect, test } from '@playwright/test';
import { listObjects, startLocalS3, throttledRelay } from '../../apps/media-node/test/s3';
import { apiLogin, createAccount, loginViaUi, uniqueName } from '../support/accounts';
import { pushTestPattern, STREAMER_IP, useLocalMediaNode } from '../support/media';
import { apiCreateStorage } from '../support/recordings-relays';
import { apiCreateInput } from '../support/streams';

// A real media node, a push by ffmpeg and a real S3 server (s3rver) behind a slow relay, all on loopback.
test.describe.configure({ timeout: 150_000 });

const node = useLocalMediaNode();

test('a recording created in the console records a live push: Recording, Uploading, Completed, the object in its info, played back and downloaded', async ({
  page,
  request,
}) => {
  const s3 = await startLocalS3(['e2e-recordings']);
  // About 40 kB/s: the upload of a few seconds of the test pattern lasts long enough to be seen.
  const slow = await throttledRelay(s3.port, 40_000);
  const account = await createAccount(request);
  const token = await apiLogin(request, { username: account.username, password: account.password });
  const storageName = uniqueName('s3');
  await apiCreateStorage(request, token, storageName, {
    type: 'AmazonS3Compatible',
    endpoint: slow.endpoint,
    bucket: 'e2e-recordings',
    path: 'console',
    ...s3.credentials,
  });
  const stream = await apiCreateInput(request, token, {
    format: 'RTMP',
    caption: 'Recorded live',
    streamer: { ipAddress: STREAMER_IP },
  });
  const pushUrl = (stream.connection as { uri: string }).uri;
  expect(pushUrl).toContain(`:${node().rtmpPort}/`);
  const push = pushTestPattern(pushUrl, 'flv', 120);
  try {
    await loginViaUi(page, account);
    await page.goto(`/#/streams/recording/${stream.id}`);
    await page.getByRole('button', { name: 'Add recording' }).click();
    const dialog = page.getByRole('dialog', { name: 'New recording' });
    await dialog.getByLabel('File name', { exact: true }).fill('console_{streamId}');
    await dialog.getByLabel('File format', { exact: true }).selectOption('MP4');
    await dialog.getByLabel('Storage').selectOption({ label: `${storageName} (e2e-recordings)` });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog).toBeHidden();

    const recording = page.getByRole('listitem').filter({ hasText: 'console_{streamId}' });
    await expect(recording).toContainText('Recording');
    // The dashboard re-polls every 5 s: the duration grows while the push goes on.
    await expect(recording).toContainText(/Duration: 00:00:(0[5-9]|[1-5]\d)/, { timeout: 40_000 });
    await recording.getByRole('button', { name: 'Stop' }).click();
    await expect(recording).toContainText('Uploading', { timeout: 20_000 });
    await expect(recording).toContainText('Completed', { timeout: 60_000 });
    await expect(recording.getByRole('button', { name: 'Delete' })).toBeEnabled();

    const key = `console/console_${stream.id}.mp4`;
    await recording.getByRole('button', { name: 'Info' }).click();
    const info = page.getByRole('dialog', { name: 'Recording' });
    await expect(info.getByText(key, { exact: true })).toBeVisible();
    await expect(info.getByText(/ in the storage$/)).toBeVisible();
    const [object] = await listObjects(s3, 'e2e-recordings', 'console/');
    expect(object?.key).toBe(key);
    expect(object?.size).toBeGreaterThan(0);

    // Watched back in the info view: the file streams from the bucket through the control plane, and a seek
    // near the end is a byte range (206) the player reads from there.
    const player = info.getByLabel('Recording player');
    await expect
      .poll(() => player.evaluate((video: HTMLVideoElement) => video.readyState), { timeout: 20_000 })
      .toBeGreaterThanOrEqual(1);
    const duration = await player.evaluate((video: HTMLVideoElement) => video.duration);
    expect(duration).toBeGreaterThan(4);
    const seeked = await player.evaluate(
      (video: HTMLVideoElement, to: number) =>
        new Promise<number>((resolve, reject) => {
          video.addEventListener('seeked', () => resolve(video.currentTime), { once: true });
          video.addEventListener('error', () => reject(new Error(`video error ${video.error?.code}`)), { once: true });
          video.currentTime = to;
        }),
      duration - 1,
    );
    expect(seeked).toBeGreaterThan(duration - 2);
    const download = await request.get((await info.getByRole('link', { name: 'Download' }).getAttribute('href')) ?? '');
    expect(download.status()).toBe(200);
    expect(download.headers()['content-disposition']).toBe(`attachment; filename="console_${stream.id}.mp4"`);
    expect((await download.body()).length).toBe(object?.size);
    await expect(page.getByRole('alert').filter({ hasText: 'Something wrong' })).toHaveCount(0);
  } finally {
    push.stop();
    await slow.close();
    await s3.close();
  }
});
