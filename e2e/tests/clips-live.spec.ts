import { expect, test } from '@playwright/test';
import { streamRoutes } from '@streamcloud/contract';
import { listObjects, startLocalS3 } from '../../apps/media-node/test/s3';
import { apiLogin, createAccount, loginViaUi, uniqueName } from '../support/accounts';
import { api } from '../support/api';
import { pushTestPattern, STREAMER_IP, useLocalMediaNode } from '../support/media';
import { apiCreateStorage } from '../support/recordings-relays';
import { apiCreateInput } from '../support/streams';

// A real media node, a push by ffmpeg and a real S3 server (s3rver), all on loopback: a clip marked on the
// preview player of a Low latency output with a rewind window (its seek bar shows the storyboard's thumbnails, goes
// back to the window's start and to live again), cut
// by the node and listed Ready; then the push ends and (after the node's 1 s reconnect grace) the Past broadcasts card lists its VOD, which the console plays.
test.describe.configure({ timeout: 150_000 });

useLocalMediaNode();

test('a clip marked in and out on the preview player is cut from the rewind window and listed Ready; the ended push is a past broadcast that plays', async ({
  page,
  request,
}) => {
  const s3 = await startLocalS3(['e2e-clips']);
  const account = await createAccount(request);
  const token = await apiLogin(request, { username: account.username, password: account.password });
  const storageName = uniqueName('s3');
  await apiCreateStorage(request, token, storageName, {
    type: 'AmazonS3Compatible',
    endpoint: s3.endpoint,
    bucket: 'e2e-clips',
    path: 'console',
    ...s3.credentials,
  });
  const stream = await apiCreateInput(request, token, {
    format: 'RTMP',
    caption: 'Clipped live',
    streamer: { ipAddress: STREAMER_IP },
  });
  await api(request, token).call(streamRoutes.createOutput, {
    body: { streamId: stream.id, format: 'HLS', hlsLatency: 'Low', dvrWindowMinutes: 1 },
  });
  const push = pushTestPattern((stream.connection as { uri: string }).uri, 'flv', 90, { size: '160x90' });
  try {
    await loginViaUi(page, account);
    await page.goto(`/#/streams/view/${stream.id}`);
    await expect(page.getByTestId('stream-status')).toHaveText('Ingestion', { timeout: 20_000 });
    const preview = page.getByRole('region', { name: 'Preview' });
    const video = preview.getByLabel('Stream preview');
    const playing = () => video.evaluate((element: HTMLVideoElement) => element.currentTime);
    await expect.poll(playing, { timeout: 30_000 }).toBeGreaterThan(1);

    // The seek bar over the rewind window shows the storyboard's thumbnail of the position pointed at.
    const seekBar = preview.getByRole('slider', { name: 'Seek' });
    await seekBar.hover({ position: { x: 5, y: 5 } });
    const thumbnail = preview.getByRole('img', { name: /^Thumbnail at \d/ });
    await expect(thumbnail).toBeVisible({ timeout: 15_000 });
    await expect
      .poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
      .toBe(800);

    await preview.getByRole('button', { name: 'Create clip' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a clip' });
    await expect(dialog).toContainText('the clip may start up to one keyframe interval (GOP) early');
    await dialog.getByRole('button', { name: 'Mark in' }).click();
    await expect(dialog.getByLabel('In (date-time)')).toHaveValue(/^\d{4}-\d\d-\d\dT/);
    const markedAt = await playing();
    await expect.poll(playing, { timeout: 20_000 }).toBeGreaterThan(markedAt + 3);
    await dialog.getByRole('button', { name: 'Mark out' }).click();
    await dialog.getByLabel('Caption').fill('Three seconds');
    await dialog.getByLabel('Storage').selectOption({ label: storageName });
    await dialog.getByRole('button', { name: 'Create clip' }).click();
    await expect(dialog).toBeHidden();

    const clip = page.getByRole('region', { name: 'Clips' }).getByRole('listitem', { name: 'Three seconds' });
    await expect(clip).toContainText('Ready', { timeout: 15_000 });
    await expect(clip).toContainText(/\d\.\d s/);
    await expect(clip.getByRole('button', { name: 'Download' })).toBeEnabled();
    // The clip's file, and its storyboard beside it (a WebVTT and its one sheet for a few seconds).
    const objects = await listObjects(s3, 'e2e-clips', 'console/clips/');
    const [file] = objects.filter((object) => object.key.endsWith('.mp4'));
    expect(file?.size).toBeGreaterThan(0);
    const folder = file?.key.replace(/\.mp4$/, '/');
    expect(objects.map((object) => object.key).sort()).toEqual(
      [file?.key, `${folder}storyboard-0.jpg`, `${folder}storyboard.vtt`].sort(),
    );
    await expect(page.getByRole('alert').filter({ hasText: 'Something wrong' })).toHaveCount(0);

    // Rewind: the Seek bar taken to the window's start from the keyboard (seconds behind live by now) plays from
    // there; Live plays the live edge again.
    const seekable = () =>
      video.evaluate((element: HTMLVideoElement) => ({
        start: element.seekable.start(0),
        end: element.seekable.end(element.seekable.length - 1),
        at: element.currentTime,
      }));
    const before = await seekable();
    expect(before.end - before.start).toBeGreaterThan(8);
    await seekBar.focus();
    await seekBar.press('Home');
    await expect.poll(async () => (await seekable()).at).toBeLessThan(before.start + 3);
    const rewound = await playing();
    await expect.poll(playing).toBeGreaterThan(rewound + 0.5);
    await preview.getByRole('button', { name: 'Live' }).click();
    await expect
      .poll(async () => {
        const now = await seekable();
        return now.end - now.at;
      })
      .toBeLessThan(4);
    const pastBroadcasts = page.getByRole('region', { name: 'Past broadcasts' });
    await expect(pastBroadcasts).toContainText('No past broadcast yet');

    push.stop();
    await push.exited;
    const broadcast = pastBroadcasts.getByRole('listitem');
    await expect(broadcast).toContainText('Available', { timeout: 20_000 });
    await expect(broadcast).toContainText(/Started \d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d/);
    await expect(broadcast).toContainText(/Duration 00:0\d:\d\d/);
    await broadcast.getByRole('button', { name: 'Watch' }).click();
    const vod = pastBroadcasts.getByLabel('Past broadcast player');
    await expect
      .poll(() => vod.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 20_000 })
      .toBeGreaterThan(1);
    await expect(pastBroadcasts.getByRole('alert')).toHaveCount(0);
  } finally {
    push.stop();
    await s3.close();
  }
});
