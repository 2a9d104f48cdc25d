import { expect, type Locator, type Page, test } from '@playwright/test';
import { snapshotRoutes } from '@streamcloud/contract';
import { makePng } from '../../apps/api/test/images';
import { apiLogin, createAccount, loginViaUi, type TestAccount } from '../support/accounts';
import { api } from '../support/api';
import { apiCreateInput, createMediaNode, reportStreamState } from '../support/streams';
import { sendReports } from '../support/usage';

let user: TestAccount;

test.beforeEach(async ({ page, request }) => {
  user = await createAccount(request);
  await loginViaUi(page, user);
});

const notice = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });
const direction = (dialog: Locator, name: 'Incoming' | 'Outgoing') => dialog.getByRole('group', { name });

async function openSettings(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Snapshots', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Snapshot settings' });
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeVisible();
  return dialog;
}

test('snapshot settings round trip, and previews of the images a node sends while the stream is in Ingestion', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const node = await createMediaNode(request);
  const token = await apiLogin(request, { username: user.username, password: user.password });
  const stream = await apiCreateInput(request, token, { format: 'RTMP', caption: 'Snapshot stream' }, node);
  await page.goto(`/#/streams/view/${stream.id}`);
  await expect(page.getByText('Snapshot stream').first()).toBeVisible();

  // Both directions start off, with the form's defaults.
  let dialog = await openSettings(page);
  const incoming = direction(dialog, 'Incoming');
  const outgoing = direction(dialog, 'Outgoing');
  await expect(incoming.getByLabel('Enable incoming snapshots')).not.toBeChecked();
  await expect(incoming.getByLabel('Format')).toHaveValue('JPEG');
  await expect(incoming.getByLabel('Quality')).toHaveValue('Medium');
  await expect(incoming.getByLabel('Interval (seconds)')).toHaveValue('5');
  await expect(incoming.getByLabel('Format')).toBeDisabled();
  await incoming.getByLabel('Enable incoming snapshots').check();
  await incoming.getByLabel('Format').selectOption('PNG');
  await incoming.getByLabel('Quality').selectOption('High');
  await incoming.getByLabel('Interval (seconds)').fill('31');
  await expect(incoming.getByText('Interval must be at most 30')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
  await incoming.getByLabel('Interval (seconds)').fill('2');
  await outgoing.getByLabel('Enable outgoing snapshots').check();
  await outgoing.getByLabel('Quality').selectOption('Low');
  await outgoing.getByLabel('Interval (seconds)').fill('30');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, 'Snapshot settings saved')).toBeVisible();
  await expect(dialog).toBeHidden();

  // Saved: the modal shows them again after a reload; turning outgoing off sends it as null.
  await page.reload();
  dialog = await openSettings(page);
  await expect(direction(dialog, 'Incoming').getByLabel('Enable incoming snapshots')).toBeChecked();
  await expect(direction(dialog, 'Incoming').getByLabel('Format')).toHaveValue('PNG');
  await expect(direction(dialog, 'Incoming').getByLabel('Quality')).toHaveValue('High');
  await expect(direction(dialog, 'Incoming').getByLabel('Interval (seconds)')).toHaveValue('2');
  await expect(direction(dialog, 'Outgoing').getByLabel('Enable outgoing snapshots')).toBeChecked();
  await expect(direction(dialog, 'Outgoing').getByLabel('Format')).toHaveValue('JPEG');
  await expect(direction(dialog, 'Outgoing').getByLabel('Quality')).toHaveValue('Low');
  await expect(direction(dialog, 'Outgoing').getByLabel('Interval (seconds)')).toHaveValue('30');
  await direction(dialog, 'Outgoing').getByLabel('Enable outgoing snapshots').uncheck();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const outgoingSettings = await api(request, token).call(snapshotRoutes.get, {
    params: { streamId: stream.id, direction: 'outgoing' },
  });
  expect(outgoingSettings).toBeNull();
  dialog = await openSettings(page);
  await expect(direction(dialog, 'Outgoing').getByLabel('Enable outgoing snapshots')).not.toBeChecked();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Not in Ingestion: no previews.
  const preview = page.getByRole('img', { name: 'Incoming snapshot' });
  await expect(preview).toHaveCount(0);

  // The node says the stream is in Ingestion and sends a snapshot: the preview appears.
  await reportStreamState(request, node, { streamId: stream.id, status: 'Ingestion' });
  const sendSnapshot = (width: number, height: number) =>
    sendReports(request, node, [
      {
        kind: 'snapshot',
        streamId: stream.id,
        direction: 'incoming',
        image: makePng(width, height, { rgb: [30, 160, 90] }).toString('base64'),
      },
    ]);
  await expect(page.getByText('No snapshot yet')).toBeVisible({ timeout: 15_000 });
  await sendSnapshot(320, 180);
  await expect(preview).toBeVisible({ timeout: 10_000 });
  await expect.poll(() => preview.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(320);
  await expect(page.getByRole('img', { name: 'Outgoing snapshot' })).toHaveCount(0);

  // It is refreshed at the configured interval (2 s).
  await sendSnapshot(640, 360);
  await expect
    .poll(() => preview.evaluate((image: HTMLImageElement) => image.naturalWidth), { timeout: 10_000 })
    .toBe(640);

  // Out of Ingestion (and Fallback) the previews are cleared.
  await reportStreamState(request, node, { streamId: stream.id, status: 'Idle' });
  await expect(preview).toHaveCount(0, { timeout: 15_000 });
});
