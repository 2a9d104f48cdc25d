import { expect, test } from '@playwright/test';
import { streamRoutes } from '@streamcloud/contract';
import { apiLogin, createAccount, loginViaUi } from '../support/accounts';
import { api } from '../support/api';
import { pushTestPattern, STREAMER_IP, useLocalMediaNode } from '../support/media';
import { apiCreateInput } from '../support/streams';

// A real media node and a short push by ffmpeg: once the push ended (after the node's 1 s reconnect grace), the
// stream dashboard's Past broadcasts card lists its VOD and the console's player plays it from the node.
test.describe.configure({ timeout: 90_000 });

useLocalMediaNode();

test('an ended push is listed under Past broadcasts with its times and plays in the console', async ({
  page,
  request,
}) => {
  const account = await createAccount(request);
  const token = await apiLogin(request, { username: account.username, password: account.password });
  const stream = await apiCreateInput(request, token, { format: 'RTMP', streamer: { ipAddress: STREAMER_IP } });
  const rewind = await api(request, token).call(streamRoutes.createOutput, {
    body: { streamId: stream.id, format: 'HLS', hlsLatency: 'Low', dvrWindowMinutes: 1 },
  });
  await loginViaUi(page, account);
  await page.goto(`/#/streams/view/${stream.id}`);
  const card = page.getByRole('region', { name: 'Past broadcasts' });
  await expect(card).toContainText('No past broadcast yet');

  const push = pushTestPattern((stream.connection as { uri: string }).uri, 'flv', 60, { size: '160x90' });
  try {
    // A few seconds packaged (the stream's ladder starts first), then the push ends: the master's first variant.
    const token = rewind.viewer.accessToken;
    const master = `${rewind.connection?.uri ?? ''}${token ? `?token=${encodeURIComponent(token)}` : ''}`;
    const segments = async () => {
      const answer = await request.get(master, { failOnStatusCode: false });
      const text = answer.ok() ? await answer.text() : '';
      const variant = text.split('\n').find((line) => line.trim() && !line.startsWith('#'));
      const playlist = variant ? await request.get(new URL(variant, answer.url()).href) : null;
      const media = playlist?.ok() ? await playlist.text() : text;
      return (media.match(/#EXTINF/g) ?? []).length;
    };
    await expect.poll(segments, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
  } finally {
    push.stop();
  }
  await push.exited;
  const broadcast = card.getByRole('listitem');
  await expect(broadcast).toContainText('Available', { timeout: 20_000 });
  await expect(broadcast).toContainText(/Started \d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d/);
  await expect(broadcast).toContainText(/Duration 00:00:\d\d/);

  await broadcast.getByRole('button', { name: 'Watch' }).click();
  const video = card.getByLabel('Past broadcast player');
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 20_000 })
    .toBeGreaterThan(1);
  await expect(card.getByRole('alert')).toHaveCount(0);
});
