import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { loginViaUi } from '../support/accounts';
import {
  accountWithStreamOnLocalNode,
  freePort,
  pushTestPattern,
  rtmpReceiver,
  runTool,
  useLocalMediaNode,
} from '../support/media';

// A real media node, a push by ffmpeg and an ffmpeg RTMP server as the relay's destination, all on loopback.
test.describe.configure({ timeout: 150_000 });

const node = useLocalMediaNode();

/** The bytes an "Uploaded: 1.23 MB" line says. */
function uploadedBytes(text: string): number {
  const match = /Uploaded:?\s*([\d.]+)\s*(B|kB|MB|GB|TB)/.exec(text);
  if (!match) return 0;
  const scale = { B: 1, kB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12 }[match[2] as 'B'];
  return Number(match[1]) * scale;
}

test('an RTMP relay created in the console relays a live push: Relaying with growing bytes, Stop, Completed', async ({
  page,
  request,
}) => {
  const { account, stream } = await accountWithStreamOnLocalNode(request, 'Relayed live');
  const pushUrl = (stream.connection as { uri: string }).uri;
  expect(pushUrl).toContain(`:${node().rtmpPort}/`);
  const dir = mkdtempSync(join(tmpdir(), 'streamcloud-e2e-relay-'));
  const file = join(dir, 'received.flv');
  const port = await freePort();
  const receiver = await rtmpReceiver(port, file);
  const push = pushTestPattern(pushUrl, 'flv', 120);
  try {
    await loginViaUi(page, account);
    await page.goto(`/#/streams/relay/${stream.id}`);
    await page.getByRole('button', { name: 'Add relay' }).click();
    const dialog = page.getByRole('dialog', { name: 'New relay' });
    await dialog.getByLabel('Server').fill(`rtmp://127.0.0.1:${port}/live`);
    await dialog.getByLabel('Stream key').fill('e2e-relay-key');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog).toBeHidden();

    const relay = page.getByRole('listitem').filter({ hasText: `rtmp://127.0.0.1:${port}/live` });
    await expect(relay).toContainText('Relaying');
    // The dashboard re-polls every 5 s: the uploaded bytes grow from one poll to a later one.
    let first = 0;
    await expect
      .poll(async () => (first = uploadedBytes((await relay.textContent()) ?? '')), { timeout: 30_000 })
      .toBeGreaterThan(0);
    await expect
      .poll(async () => uploadedBytes((await relay.textContent()) ?? ''), { timeout: 30_000 })
      .toBeGreaterThan(first);

    await relay.getByRole('button', { name: 'Stop' }).click();
    await expect(relay).toContainText('Completed', { timeout: 20_000 });
    await expect(relay).toContainText('Stopped: disconnected from');
    await expect(relay.getByRole('button', { name: 'Delete' })).toBeEnabled();
    // The destination saw the end of the publish, and got the stream's tracks.
    await receiver.exited;
    const probe = await runTool(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', file],
      20_000,
    );
    expect(probe.stdout.split('\n').filter(Boolean).sort()).toEqual(['aac', 'h264']);
    await expect(page.getByRole('alert').filter({ hasText: 'Something wrong' })).toHaveCount(0);
  } finally {
    push.stop();
    receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
