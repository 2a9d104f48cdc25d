import { expect, type Page, test } from '@playwright/test';
import { loginViaUi } from '../support/accounts';
import { accountWithStreamOnLocalNode, pushTestPattern, useLocalMediaNode } from '../support/media';
import { addViewerInConsole } from '../support/streams';

// A real media node on loopback transcodes what ffmpeg pushes: the ladder is edited in the console.
test.describe.configure({ timeout: 180_000 });

const node = useLocalMediaNode();
const card = (page: Page, name: string) => page.getByRole('region', { name });

/** Adds an H.264 track of that size and bitrate (Ultrafast: the machine runs the whole ladder in real time). */
async function addVideoTrack(page: Page, width: number, height: number, kbps: number) {
  await card(page, 'Video tracks').getByRole('button', { name: 'Add video track' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add video track' });
  await dialog.getByLabel('Width').fill(String(width));
  await dialog.getByLabel('Height').fill(String(height));
  await dialog.getByLabel('Frame rate').fill('15');
  await dialog.getByLabel('Bitrate (kbps)').fill(String(kbps));
  await dialog.getByLabel('Speed preset').selectOption('ultrafast');
  await dialog.getByRole('button', { name: 'Save track' }).click();
  await expect(dialog).toBeHidden();
}

test('a ladder edited in the console is what the node encodes: outgoing tracks on the dashboard, HLS variants', async ({
  page,
  request,
}) => {
  const { account, stream } = await accountWithStreamOnLocalNode(request, 'Ladder on air');
  expect(stream.nodeId).toBe(node().id);
  await loginViaUi(page, account);

  // The editor: the default ladder goes, two renditions and AAC 48 kHz come.
  await page.goto(`/#/streams/transcode/${stream.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Transcode editor' })).toBeVisible();
  const video = card(page, 'Video tracks');
  const audio = card(page, 'Audio tracks');
  await expect(video.getByRole('row', { name: /^Video track \d$/ })).toHaveCount(4);
  for (let index = 4; index >= 1; index--)
    await video.getByRole('button', { name: `Remove video track ${index}` }).click();
  for (let index = 2; index >= 1; index--)
    await audio.getByRole('button', { name: `Remove audio track ${index}` }).click();
  await addVideoTrack(page, 480, 270, 500);
  await addVideoTrack(page, 320, 180, 250);
  await audio.getByRole('button', { name: 'Add audio preset' }).click();
  await page.getByRole('button', { name: 'AAC 48 kHz', exact: true }).click();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Transcoding saved' })).toBeVisible();

  const connection = stream.connection as { uri: string };
  const push = pushTestPattern(connection.uri, 'flv', 120, { size: '640x360' });
  try {
    await page.goto(`/#/streams/view/${stream.id}`);
    await expect(page.getByTestId('stream-status')).toHaveText('Ingestion', { timeout: 20_000 });
    const tracks = card(page, 'Tracks');
    await expect(tracks.getByRole('list', { name: 'Incoming tracks' })).toContainText('H264, 640x360', {
      timeout: 20_000,
    });
    const outgoing = tracks.getByRole('list', { name: 'Outgoing tracks' }).getByRole('listitem');
    await expect(outgoing).toHaveText([/^H264, 480x270, /, /^H264, 320x180, /, /^AAC, 2 channels, /], {
      timeout: 30_000,
    });

    // The HLS output the Viewers card shows plays a master playlist with the two renditions.
    const viewers = await addViewerInConsole(page, 'HLS');
    const url = (await viewers.getByText(/^http:\/\/127\.0\.0\.1:\d+\/hls\/.+\.m3u8$/).textContent()) ?? '';
    await expect
      .poll(async () => {
        const master = await (await request.get(url)).text();
        return [...master.matchAll(/RESOLUTION=(\d+x\d+)/g)].map((match) => match[1]);
      })
      .toEqual(['480x270', '320x180']);
  } finally {
    push.stop();
  }
});
