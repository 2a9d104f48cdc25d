import { expect, type Page, test } from '@playwright/test';
import { fallbackRoutes } from '@streamcloud/contract';
import { makePng } from '../../apps/api/test/images';
import { apiLogin, createAccount, loginViaUi, type TestAccount } from '../support/accounts';
import { api } from '../support/api';
import { apiCreateInput, createMediaNode } from '../support/streams';
import { sendReports } from '../support/usage';

let user: TestAccount;

test.beforeEach(async ({ page, request }) => {
  user = await createAccount(request);
  await loginViaUi(page, user);
});

const notice = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });
const rowOf = (page: Page, label: string) => page.getByRole('row').filter({ hasText: label });

test('adds a slate by upload, shows the states nodes report, edits and deletes fallbacks', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const node = await createMediaNode(request);
  const token = await apiLogin(request, { username: user.username, password: user.password });
  const stream = await apiCreateInput(request, token, { format: 'RTMP', caption: 'Fallback stream' }, node);
  expect(stream.nodeId).toBe(node.id);

  // The dashboard's Fallback action is a working link to the fallback dashboard.
  await page.goto(`/#/streams/view/${stream.id}`);
  await page.getByRole('link', { name: 'Fallback', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`#/streams/fallback/${stream.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Fallbacks' })).toBeVisible();
  await expect(page.getByText('No fallbacks yet.')).toBeVisible();

  // A slate from an uploaded image: the limits are checked by the bytes.
  await page.getByRole('button', { name: 'Add fallback' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add fallback' });
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
  await dialog.getByLabel('Type').selectOption('Slate');
  await expect(dialog.getByLabel('Source')).toHaveValue('DATA_URI');
  await dialog.getByLabel('Label').fill('Be right back');
  const upload = dialog.getByLabel('Slate image');
  await upload.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: makePng(1921, 1081) });
  await expect(notice(page, 'Maximum dimensions allowed 1920x1080 px')).toBeVisible();
  await upload.setInputFiles({
    name: 'heavy.png',
    mimeType: 'image/png',
    buffer: makePng(100, 100, { bytes: 5_000_001 }),
  });
  await expect(notice(page, 'Maximum size allowed is 5 Mb')).toBeVisible();
  await upload.setInputFiles({
    name: 'slate.png',
    mimeType: 'image/png',
    buffer: makePng(1920, 1080, { rgb: [20, 90, 200] }),
  });
  await expect(dialog.getByRole('img', { name: 'Slate preview' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const slate = rowOf(page, 'Be right back');
  await expect(slate).toContainText('Slate');
  await expect(slate.getByText('Pending')).toHaveClass(/bg-primary/);
  await expect(slate.getByRole('img', { name: 'Slate of Be right back' })).toBeVisible();

  // An input fallback; a bad URL keeps Save disabled.
  await page.getByRole('button', { name: 'Add fallback' }).click();
  dialog = page.getByRole('dialog', { name: 'Add fallback' });
  await dialog.getByLabel('Type').selectOption('Input');
  await dialog.getByLabel('Label').fill('Backup feed');
  await dialog.getByLabel('URL').fill('ftp://backup.example.com/live');
  await expect(dialog.getByText('URL must be a rtmp, rtmps, rtsp, srt, http, https URL')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
  await dialog.getByLabel('URL').fill('rtmp://backup.example.com/live/key');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const backup = rowOf(page, 'Backup feed');
  await expect(backup).toContainText('rtmp://backup.example.com/live/key');

  // The node serving the stream reports the fallbacks' states: Ingestion green, Error red.
  const [first, second] = await api(request, token).call(fallbackRoutes.list, { query: { streamId: stream.id } });
  await sendReports(request, node, [
    { kind: 'fallback-state', fallbackId: first?.id ?? '', state: 'Ingestion' },
    { kind: 'fallback-state', fallbackId: second?.id ?? '', state: 'Error', message: 'Source unreachable' },
  ]);
  await expect(slate.getByText('Ingestion')).toHaveClass(/bg-success/, { timeout: 15_000 });
  await expect(backup.getByText('Error', { exact: true })).toHaveClass(/bg-danger/, { timeout: 15_000 });
  await expect(backup).toContainText('Source unreachable');

  // Edit: the label and the source change; the fallback waits for its node again (Pending).
  await page.getByRole('button', { name: 'Edit fallback Backup feed' }).click();
  dialog = page.getByRole('dialog', { name: 'Edit fallback' });
  await expect(dialog.getByLabel('Type')).toHaveValue('Input');
  await expect(dialog.getByLabel('URL')).toHaveValue('rtmp://backup.example.com/live/key');
  await dialog.getByLabel('Label').fill('Backup SRT feed');
  await dialog.getByLabel('URL').fill('srt://backup.example.com:9000?streamid=b');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const edited = rowOf(page, 'Backup SRT feed');
  await expect(edited).toContainText('srt://backup.example.com:9000?streamid=b');
  await expect(edited.getByText('Pending')).toHaveClass(/bg-primary/);

  // Delete asks first; Cancel keeps it.
  await page.getByRole('button', { name: 'Delete fallback Be right back' }).click();
  let confirm = page.getByRole('dialog', { name: 'Delete fallback' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(slate).toBeVisible();
  await page.getByRole('button', { name: 'Delete fallback Be right back' }).click();
  confirm = page.getByRole('dialog', { name: 'Delete fallback' });
  await confirm.getByRole('button', { name: 'Ok' }).click();
  await expect(slate).toHaveCount(0);
  await expect(edited).toBeVisible();

  await page.reload();
  await expect(rowOf(page, 'Backup SRT feed')).toBeVisible();
  await expect(rowOf(page, 'Be right back')).toHaveCount(0);

  await page.getByRole('link', { name: 'Back' }).click();
  await expect(page).toHaveURL(new RegExp(`#/streams/view/${stream.id}$`));
});

test("alerts the server's reason when a fallback cannot be created", async ({ page, request }) => {
  const token = await apiLogin(request, { username: user.username, password: user.password });
  const stream = await apiCreateInput(request, token, { format: 'SRT', caption: 'Storage fallback' });
  await page.goto(`/#/streams/fallback/${stream.id}`);
  await page.getByRole('button', { name: 'Add fallback' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add fallback' });
  await dialog.getByLabel('Type').selectOption('Video');
  await dialog.getByLabel('Source').selectOption('STORAGE');
  const storageId = '0c1d2e3f-4a5b-4c6d-8e7f-901234567890';
  await dialog.getByLabel('Storage object').fill(`${storageId}/loops/intro.mp4`);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, `Storage ${storageId} not found among the stream owner's storages`)).toBeVisible();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByText('No fallbacks yet.')).toBeVisible();
});
