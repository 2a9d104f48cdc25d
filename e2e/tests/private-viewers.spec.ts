import { expect, test } from '@playwright/test';
import { createAccount, loginViaUi } from '../support/accounts';
import { createStreamInConsole, pushTestPattern, runTool, useLocalMediaNode } from '../support/media';
import { addViewerInConsole } from '../support/streams';

// A Private stream on a real media node: the viewer plays with nothing but what the console shows.
test.describe.configure({ timeout: 120_000 });
test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const node = useLocalMediaNode();

test("a Private stream's viewer plays from the URL the Viewers card copies, and not without its token", async ({
  page,
  request,
}) => {
  const account = await createAccount(request);
  await loginViaUi(page, account);
  const { endpoint, accessToken } = await createStreamInConsole(page, {
    caption: 'Private pattern',
    format: 'RTMP',
    access: 'Private',
  });
  expect(endpoint).toMatch(new RegExp(`^rtmp://127\\.0\\.0\\.1:${node().rtmpPort}/live/in%2B`));
  expect(accessToken).toMatch(/\S/);

  // The streamer adds the access token to the key, as the README says for RTMP.
  const push = pushTestPattern(`${endpoint}?token=${encodeURIComponent(accessToken ?? '')}`, 'flv', 60);
  try {
    await expect(page.getByTestId('stream-status')).toHaveText('Ingestion', { timeout: 20_000 });

    const viewers = await addViewerInConsole(page, 'HLS');
    const viewer = viewers.getByRole('listitem');
    const token = viewer.getByLabel('Playback token');
    await expect(token).toHaveAttribute('type', 'password');
    await viewer.getByRole('button', { name: 'Show token' }).click();
    await expect(token).toHaveAttribute('type', 'text');
    const playbackToken = await token.inputValue();
    expect(playbackToken).toMatch(/^[\w-]{32}$/);

    // The card shows the endpoint without the token.
    const shown = viewer.getByText(/^http:\/\/127\.0\.0\.1:\d+\/hls\/out%2B[0-9a-f-]{36}\/index\.m3u8$/);
    await expect(shown).toBeVisible();
    const bare = (await shown.textContent()) ?? '';
    await viewer.getByRole('button', { name: 'Copy URL' }).click();
    await expect(viewer.getByRole('button', { name: 'Copy URL' })).toContainText('Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(`${bare}?token=${playbackToken}`);

    const probe = (url: string) =>
      runTool('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,width', '-of', 'csv=p=0', url], 20_000);
    const played = await probe(copied);
    expect(played.stdout, played.stderr).toContain('h264,320');
    const refused = await probe(bare);
    expect(refused.stdout).not.toContain('h264');
    expect(refused.stderr).toContain('403');
    await expect(viewer).toContainText('1 session', { timeout: 15_000 });
  } finally {
    push.stop();
  }
});
