import { expect, type Page, test } from '@playwright/test';
import { fallbackRoutes } from '@streamcloud/contract';
import { dataUri, makePng } from '../../apps/api/test/images';
import { loginViaUi } from '../support/accounts';
import { api } from '../support/api';
import { accountWithStreamOnLocalNode, pushTestPattern, useLocalMediaNode } from '../support/media';

// A real media node and a push by ffmpeg on loopback: the node prepares the slate, plays it when the push
// drops and stops it when the push returns; the console shows what the node reports.
test.describe.configure({ timeout: 150_000 });

const node = useLocalMediaNode();

const rowOf = (page: Page, label: string) => page.getByRole('row').filter({ hasText: label });

test('the fallbacks dashboard shows the slate the node prepares, plays while the push is gone, and stops when it returns', async ({
  page,
  request,
}) => {
  const { account, token, stream } = await accountWithStreamOnLocalNode(request, 'Fallback live');
  const pushUrl = (stream.connection as { uri: string }).uri;
  expect(pushUrl).toContain(`:${node().rtmpPort}/`);
  await api(request, token).call(fallbackRoutes.create, {
    body: {
      streamId: stream.id,
      type: 'Slate',
      label: 'Be right back',
      settings: { resources: [{ type: 'DATA_URI', data: dataUri(makePng(320, 240, { rgb: [200, 30, 30] })) }] },
    },
  });
  let push = pushTestPattern(pushUrl, 'flv', 120);
  try {
    await loginViaUi(page, account);
    await page.goto(`/#/streams/fallback/${stream.id}`);
    const slate = rowOf(page, 'Be right back');
    // Live: the node fetched and checked the slate; it is ready (Pending, blue).
    await expect(slate).toContainText('Ready: PNG 320x240', { timeout: 30_000 });
    await expect(slate.getByText('Pending')).toHaveClass(/bg-primary/);

    // The push drops: the node plays the slate (Ingestion, green) and the stream is in Fallback.
    push.stop();
    await push.exited;
    await expect(slate.getByText('Ingestion')).toHaveClass(/bg-success/, { timeout: 30_000 });
    await expect(slate).toContainText('Playing');
    await page.getByRole('link', { name: 'Back' }).click();
    await expect(page.getByTestId('stream-status')).toHaveText('Fallback', { timeout: 15_000 });
    await expect(page.getByText('Fallback Be right back started').first()).toBeVisible();

    // The push comes back: Ingestion again, and the slate is stopped and ready for the next drop.
    push = pushTestPattern(pushUrl, 'flv', 120);
    await expect(page.getByTestId('stream-status')).toHaveText('Ingestion', { timeout: 30_000 });
    await page.getByRole('link', { name: 'Fallback', exact: true }).click();
    await expect(slate.getByText('Pending')).toHaveClass(/bg-primary/, { timeout: 30_000 });
    await expect(slate).toContainText('Ready: PNG 320x240');
    await expect(page.getByRole('alert').filter({ hasText: 'Something wrong' })).toHaveCount(0);
  } finally {
    push.stop();
  }
});
