import { expect, type Locator, type Page, test } from '@playwright/test';
import { makeJpeg, makePng } from '../../apps/api/test/images';
import { apiLogin, createAccount, loginViaUi, type TestAccount } from '../support/accounts';
import { apiCreateInput } from '../support/streams';

let user: TestAccount;

test.beforeEach(async ({ page, request }) => {
  user = await createAccount(request);
  await loginViaUi(page, user);
});

const card = (page: Page, name: string) => page.getByRole('region', { name });
const notice = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });
const saveButton = (page: Page) => page.getByRole('button', { name: 'Save', exact: true });

async function openEditor(page: Page, request: Parameters<typeof apiCreateInput>[0], caption: string) {
  const token = await apiLogin(request, { username: user.username, password: user.password });
  const stream = await apiCreateInput(request, token, { format: 'RTMP', caption });
  await page.goto(`/#/streams/transcode/${stream.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Transcode editor' })).toBeVisible();
  await expect(page.getByText(caption)).toBeVisible();
  return stream;
}

/** Types into a field of the track dialog and expects the rule's message with Save track disabled. */
async function expectRule(dialog: Locator, label: string, value: string, message: string) {
  await dialog.getByLabel(label, { exact: true }).fill(value);
  await expect(dialog.getByText(message)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Save track' })).toBeDisabled();
}

test('builds a ladder from presets, edits tracks with each rule, asks before leaving, saves and reloads equal', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const stream = await openEditor(page, request, 'Ladder stream');
  const video = card(page, 'Video tracks');
  const audio = card(page, 'Audio tracks');
  // The six default tracks of a new adjustable-transcode stream.
  await expect(video.getByRole('row', { name: /^Video track \d$/ })).toHaveCount(4);
  await expect(audio.getByRole('row', { name: /^Audio track \d$/ })).toHaveCount(2);
  await expect(saveButton(page)).toBeDisabled();

  // Start over from presets.
  for (let index = 4; index >= 1; index--)
    await video.getByRole('button', { name: `Remove video track ${index}` }).click();
  for (let index = 2; index >= 1; index--)
    await audio.getByRole('button', { name: `Remove audio track ${index}` }).click();
  await expect(saveButton(page)).toBeEnabled();
  for (const preset of ['H264 1080p', 'H264 720p', 'H264 480p', 'VP8 360p', 'VP8 240p']) {
    await video.getByRole('button', { name: 'Add video preset' }).click();
    await page.getByRole('button', { name: preset, exact: true }).click();
  }
  await audio.getByRole('button', { name: 'Add audio preset' }).click();
  await page.getByRole('button', { name: 'AAC 48 kHz', exact: true }).click();
  await expect(video.getByRole('row', { name: 'Video track 1' })).toContainText('1920x1080');
  await expect(video.getByRole('row', { name: 'Video track 1' })).toContainText('4000 kbps');
  await expect(video.getByRole('row', { name: 'Video track 3' })).toContainText('854x480');
  await expect(video.getByRole('row', { name: 'Video track 5' })).toContainText('426x240');
  await expect(video.getByRole('row', { name: 'Video track 5' })).toContainText('key distance 60');

  // A new video track starts from the editor's defaults; every rule of the form shows its message.
  await video.getByRole('button', { name: 'Add video track' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add video track' });
  await expect(dialog.getByLabel('Codec')).toHaveValue('H264');
  await expect(dialog.getByLabel('Bitrate (kbps)')).toHaveValue('2000');
  await expect(dialog.getByLabel('Speed preset')).toHaveValue('superfast');
  await expect(dialog.getByLabel('Tune')).toHaveValue('zerolatency');
  await expect(dialog.getByLabel('Key interval')).toHaveValue('0');
  await expectRule(dialog, 'Width', '640', 'Width and height must both be set or both be empty');
  await expectRule(dialog, 'Height', '-2', 'Height must be at least 0');
  await dialog.getByLabel('Height').fill('360');
  await expectRule(dialog, 'Frame rate', '0', 'Frame rate must be at least 1');
  await dialog.getByLabel('Frame rate').fill('25');
  await expectRule(dialog, 'Bitrate (kbps)', '99', 'Bitrate must be at least 100');
  await dialog.getByLabel('Bitrate (kbps)').fill('700');
  await expectRule(dialog, 'Key interval', '1', 'Key interval must be at least 2 (or 0 to let the encoder choose)');
  await dialog.getByLabel('Key interval').fill('50');
  await dialog.getByLabel('Speed preset').selectOption('veryfast');
  await dialog.getByLabel('Tune').selectOption('fastdecode');
  await dialog.getByRole('button', { name: 'Save track' }).click();
  await expect(dialog).toBeHidden();
  await expect(video.getByRole('row', { name: 'Video track 6' })).toContainText('640x360');
  await expect(video.getByRole('row', { name: 'Video track 6' })).toContainText(
    'Veryfast, Fastdecode, key interval 50',
  );

  // Edit a VP8 track: its own rules.
  await video.getByRole('button', { name: 'Edit video track 4' }).click();
  dialog = page.getByRole('dialog', { name: 'Edit video track' });
  await expect(dialog.getByLabel('Key distance')).toHaveValue('60');
  await expectRule(dialog, 'Bitrate (kbps)', '50', 'Bitrate must be at least 100');
  await dialog.getByLabel('Bitrate (kbps)').fill('900');
  await expectRule(dialog, 'Key distance', '1', 'Key distance must be at least 2 (or 0 to let the encoder choose)');
  await dialog.getByLabel('Key distance').fill('120');
  await dialog.getByRole('button', { name: 'Save track' }).click();
  await expect(video.getByRole('row', { name: 'Video track 4' })).toContainText('900 kbps');

  // Audio: add one with the defaults, each rule, and an edit closed by Escape (nothing changes).
  await audio.getByRole('button', { name: 'Add audio track' }).click();
  dialog = page.getByRole('dialog', { name: 'Add audio track' });
  await expect(dialog.getByLabel('Codec')).toHaveValue('AAC');
  await expect(dialog.getByLabel('Rate (Hz)')).toHaveValue('48000');
  await expect(dialog.getByLabel('Channels')).toHaveValue('2');
  await expect(dialog.getByLabel('Bitrate (kbps)')).toHaveValue('128');
  await expectRule(dialog, 'Rate (Hz)', '799', 'Rate must be at least 800');
  await expectRule(dialog, 'Rate (Hz)', '192001', 'Rate must be at most 192000');
  await dialog.getByLabel('Rate (Hz)').fill('44100');
  await expectRule(dialog, 'Channels', '0', 'Channels must be at least 1');
  await expectRule(dialog, 'Channels', '3', 'Channels must be at most 2');
  await dialog.getByLabel('Channels').fill('1');
  await expectRule(dialog, 'Bitrate (kbps)', '9', 'Bitrate must be at least 10');
  await dialog.getByLabel('Codec').selectOption('Opus');
  await expectRule(dialog, 'Bitrate (kbps)', '0', 'Bitrate must be at least 1');
  await dialog.getByLabel('Bitrate (kbps)').fill('64');
  await dialog.getByRole('button', { name: 'Save track' }).click();
  await expect(audio.getByRole('row', { name: 'Audio track 2' })).toContainText('Opus');
  await audio.getByRole('button', { name: 'Edit audio track 1' }).click();
  await page.getByRole('dialog', { name: 'Edit audio track' }).getByLabel('Codec').selectOption('MP3');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(audio.getByRole('row', { name: 'Audio track 1' })).toContainText('AAC');

  // Settings.
  await page.getByLabel('Ad-marker mode').selectOption('SpliceMedia');
  await page.getByLabel('Time encoder').check();

  // Leaving with unsaved changes asks; Cancel stays.
  await page.getByRole('link', { name: 'Back' }).click();
  const confirm = page.getByRole('dialog', { name: 'Unsaved changes' });
  await expect(confirm).toContainText(
    'Are you sure you want to exit without saving? Any unsaved changes will be lost.',
  );
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(new RegExp(`#/streams/transcode/${stream.id}$`));

  await saveButton(page).click();
  await expect(notice(page, 'Transcoding saved')).toBeVisible();
  await expect(saveButton(page)).toBeDisabled();
  const rows = async () => ({
    video: await video.getByRole('row', { name: /^Video track \d$/ }).allInnerTexts(),
    audio: await audio.getByRole('row', { name: /^Audio track \d$/ }).allInnerTexts(),
  });
  const before = await rows();
  expect(before.video).toHaveLength(6);

  await page.reload();
  await expect(page.getByText('Ladder stream')).toBeVisible();
  await expect(video.getByRole('row', { name: /^Video track \d$/ })).toHaveCount(6);
  expect(await rows()).toEqual(before);
  await expect(page.getByLabel('Ad-marker mode')).toHaveValue('SpliceMedia');
  await expect(page.getByLabel('Time encoder')).toBeChecked();
  await expect(saveButton(page)).toBeDisabled();

  // Saved: Back leaves without asking.
  await page.getByRole('link', { name: 'Back' }).click();
  await expect(page).toHaveURL(new RegExp(`#/streams/view/${stream.id}$`));
});

test('asks the browser question when the tab closes with unsaved changes', async ({ page, request }) => {
  await openEditor(page, request, 'Closing stream');
  await card(page, 'Video tracks').getByRole('button', { name: 'Remove video track 1' }).click();
  const question = new Promise<string>((resolve) => {
    page.once('dialog', async (dialog) => {
      resolve(dialog.type());
      await dialog.accept();
    });
  });
  await page.close({ runBeforeUnload: true });
  expect(await question).toBe('beforeunload');
});

test('takes an overlay by its bytes: each rejection text, then an accepted image with offsets and preview', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await openEditor(page, request, 'Overlay stream');
  const overlay = card(page, 'Overlay');
  const upload = overlay.getByLabel('Overlay image');

  await upload.setInputFiles({
    name: 'big.png',
    mimeType: 'image/png',
    buffer: makePng(100, 100, { bytes: 1_000_001 }),
  });
  await expect(notice(page, 'Maximum size allowed is 1 Mb')).toBeVisible();
  await upload.setInputFiles({
    name: 'logo.png',
    mimeType: 'image/png',
    buffer: Buffer.from(
      'GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,',
      'latin1',
    ),
  });
  await expect(notice(page, 'Only Images are allowed ( JPG | PNG )')).toBeVisible();
  await upload.setInputFiles({ name: 'wide.jpg', mimeType: 'image/jpeg', buffer: makeJpeg(361, 361, { bytes: 3000 }) });
  await expect(notice(page, 'Maximum dimensions allowed 360x360 px')).toBeVisible();
  await expect(overlay.getByRole('img', { name: 'Overlay preview' })).toHaveCount(0);
  await expect(saveButton(page)).toBeDisabled();

  // Exactly 1 MB and 360x360 is taken.
  await upload.setInputFiles({
    name: 'logo.png',
    mimeType: 'image/png',
    buffer: makePng(360, 360, { bytes: 1_000_000 }),
  });
  const preview = overlay.getByRole('img', { name: 'Overlay preview' });
  await expect(preview).toBeVisible();
  expect(await preview.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(360);
  await overlay.getByLabel('Offset X').fill('-1');
  await expect(overlay.getByText('Offset X must be at least 0')).toBeVisible();
  await expect(saveButton(page)).toBeDisabled();
  await overlay.getByLabel('Offset X').fill('16');
  await overlay.getByLabel('Offset Y').fill('24');
  await saveButton(page).click();
  await expect(notice(page, 'Transcoding saved')).toBeVisible();

  await page.reload();
  await expect(overlay.getByRole('img', { name: 'Overlay preview' })).toBeVisible();
  await expect(overlay.getByLabel('Offset X')).toHaveValue('16');
  await expect(overlay.getByLabel('Offset Y')).toHaveValue('24');

  // Wider than 360 but not taller is taken too; then removing it is a change to save.
  await upload.setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: makePng(600, 120) });
  await expect
    .poll(() =>
      overlay.getByRole('img', { name: 'Overlay preview' }).evaluate((image: HTMLImageElement) => image.naturalWidth),
    )
    .toBe(600);
  await overlay.getByRole('button', { name: 'Remove overlay' }).click();
  await expect(overlay.getByText('No overlay.')).toBeVisible();
  await saveButton(page).click();
  await expect(notice(page, 'Transcoding saved')).toBeVisible();
  await page.reload();
  await expect(overlay.getByText('No overlay.')).toBeVisible();
});
