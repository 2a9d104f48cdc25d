import { expect, type Locator, type Page, test } from '@playwright/test';
import { FILE_NAME_TOOLTIP, MP4_TOOLTIP, storageRoutes } from '@streamcloud/contract';
import { apiLogin, createAccount, loginViaUi, type TestAccount, uniqueName } from '../support/accounts';
import { api } from '../support/api';
import { installPageClock, toNextPoll } from '../support/clock';
import {
  apiCreateRecording,
  apiCreateStorage,
  apiStreamRecordings,
  reportRecordingState,
} from '../support/recordings-relays';
import { apiCreateInput, createMediaNode, reportStreamState, type TestNode } from '../support/streams';

let user: TestAccount;
let token: string;
let node: TestNode;

test.beforeEach(async ({ page, request }) => {
  user = await createAccount(request);
  token = await apiLogin(request, { username: user.username, password: user.password });
  node = await createMediaNode(request);
  await loginViaUi(page, user);
});

const notice = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });
const itemOf = (page: Page, text: string) => page.getByRole('listitem').filter({ hasText: text });
const pressed = (locator: Locator) => expect(locator).toHaveAttribute('aria-pressed', 'true');
const notPressed = (locator: Locator) => expect(locator).toHaveAttribute('aria-pressed', 'false');

test('creates recordings with each preset and format; file name placeholders, example and limits', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const stream = await apiCreateInput(request, token, { format: 'RTMP', caption: 'Recorded stream' }, node);
  const storageName = uniqueName('bucket');
  const storage = await apiCreateStorage(request, token, storageName);
  // What the node reports is what the 'Current tracks' preset is made of.
  await reportStreamState(request, node, {
    streamId: stream.id,
    status: 'Ingestion',
    tracks: {
      incoming: [
        { idx: 0, type: 'Video', codec: 'H264', width: 1280, height: 720, bps: 2_000_000, channels: null, rate: null },
        { idx: 1, type: 'Audio', codec: 'AAC', width: null, height: null, bps: 128_000, channels: 2, rate: 48000 },
      ],
    },
  });

  await page.goto(`/#/streams/recording/${stream.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Recordings' })).toBeVisible();
  await expect(page.getByText('No recordings yet.')).toBeVisible();

  // Defaults: the uuid template, MKV, no autostart, the preset All; submit disabled while invalid.
  await page.getByRole('button', { name: 'Add recording' }).click();
  let dialog = page.getByRole('dialog', { name: 'New recording' });
  const fileName = dialog.getByLabel('File name', { exact: true });
  await expect(dialog.getByLabel('Stream ID', { exact: true })).toHaveValue(stream.id);
  await expect(fileName).toHaveValue('{uuid}');
  await expect(dialog.getByLabel('File format', { exact: true })).toHaveValue('MKV');
  await expect(dialog.getByLabel('Autostart')).not.toBeChecked();
  await pressed(dialog.getByRole('button', { name: 'All', exact: true }));
  await expect(dialog.getByRole('listitem')).toHaveCount(2);
  await expect(dialog.getByRole('button', { name: 'Create' })).toBeDisabled();
  await expect(dialog.getByTestId('file-name-example')).toHaveText(/^[0-9a-f-]{36}$/);

  // Tooltips of section 5.
  await dialog.getByRole('button', { name: 'About file names' }).hover();
  await expect(page.getByRole('tooltip', { name: FILE_NAME_TOOLTIP })).toBeVisible();
  await dialog.getByRole('button', { name: 'About file formats' }).hover();
  const tooltip = page.getByRole('tooltip', { name: MP4_TOOLTIP });
  await expect(tooltip).toBeVisible();
  // The spec's z-index for tooltips is the modals' (1055), not Bootstrap's 1080.
  await expect(tooltip).toHaveCSS('z-index', '1055');
  await expect(dialog).toHaveCSS('z-index', '1055');
  await expect(page.getByRole('tooltip', { name: FILE_NAME_TOOLTIP })).toBeHidden();

  // Placeholder buttons toggle them in the name; the example follows.
  await fileName.fill('show');
  await dialog.getByRole('button', { name: 'Year', exact: true }).click();
  await expect(fileName).toHaveValue('show_{year}');
  await pressed(dialog.getByRole('button', { name: 'Year', exact: true }));
  await expect(dialog.getByTestId('file-name-example')).toHaveText(`show_${new Date().getUTCFullYear()}`);
  await dialog.getByRole('button', { name: 'Stream ID', exact: true }).click();
  await dialog.getByRole('button', { name: 'Year', exact: true }).click();
  await expect(fileName).toHaveValue('show_{streamId}');
  await notPressed(dialog.getByRole('button', { name: 'Year', exact: true }));
  await expect(dialog.getByTestId('file-name-example')).toHaveText(`show_${stream.id}`);
  await expect(dialog.getByText(`${`show_${stream.id}`.length} / 254`)).toBeVisible();

  // Limits: the counter against 254, the field's 255, required.
  await fileName.fill('a'.repeat(255));
  await expect(dialog.getByText('255 / 254')).toBeVisible();
  await expect(
    dialog.getByText('Longer than 254 characters: the name will be truncated and a uuid appended.'),
  ).toBeVisible();
  await expect(dialog.getByTestId('file-name-example')).toHaveText(/^a{217}_[0-9a-f-]{36}$/);
  await fileName.fill('a'.repeat(256));
  await expect(dialog.getByText('File name must be at most 255 characters')).toBeVisible();
  await fileName.fill('');
  await expect(dialog.getByText('File name is required')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Create' })).toBeDisabled();

  // Best resolution, MP4: created in state Recording.
  await fileName.fill('show_{streamId}');
  await dialog.getByLabel('Storage').selectOption({ label: `${storageName} (media)` });
  await dialog.getByRole('button', { name: 'Best resolution' }).click();
  await expect(dialog.getByRole('listitem').filter({ hasText: 'best resolution' })).toBeVisible();
  await dialog.getByLabel('File format', { exact: true }).selectOption('MP4');
  await expect(dialog.getByText(MP4_TOOLTIP).first()).toBeVisible();
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  const best = itemOf(page, 'show_{streamId}');
  await expect(best).toContainText('Recording');
  await expect(best).toContainText('MP4');
  await expect(best).toContainText(`Storage: ${storageName}`);

  // Current tracks, autostart: a name without placeholders gets a uuid.
  await page.getByRole('button', { name: 'Add recording' }).click();
  dialog = page.getByRole('dialog', { name: 'New recording' });
  await dialog.getByRole('button', { name: 'Current tracks' }).click();
  await expect(dialog.getByText('track #0')).toBeVisible();
  await expect(dialog.getByText('track #1')).toBeVisible();
  await pressed(dialog.getByRole('button', { name: 'Current tracks' }));
  await dialog.getByLabel('File name', { exact: true }).fill('nightly');
  await dialog.getByLabel('Autostart').check();
  await expect(dialog.getByTestId('file-name-example')).toHaveText(/^nightly_[0-9a-f-]{36}$/);
  await dialog.getByLabel('Storage').selectOption({ label: `${storageName} (media)` });
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('region', { name: 'Autostarting' })).toContainText('nightly_{uuid}');
  await expect(page.getByRole('region', { name: 'Other recordings' })).toContainText('show_{streamId}');

  // All with a custom selector, then MP4 drops the selector whose codec MP4 cannot hold; MKV is kept.
  await page.getByRole('button', { name: 'Add recording' }).click();
  dialog = page.getByRole('dialog', { name: 'New recording' });
  await dialog.getByRole('button', { name: 'Add track' }).click();
  const selector = page.getByRole('dialog', { name: 'Add track' });
  await selector.getByLabel('Type').selectOption('Audio');
  await selector.getByLabel('Codec').selectOption('Opus');
  await selector.getByLabel('Bitrate condition').selectOption('Greater');
  await expect(
    selector.getByText('Bitrate must be above 0 for an Approximate, Greater or Less condition'),
  ).toBeVisible();
  await expect(selector.getByRole('button', { name: 'Save track' })).toBeDisabled();
  await selector.getByLabel('Bitrate (kbps)').fill('64');
  await expect(selector.getByTestId('selector-description')).toHaveText('Opus, over 64 kbps');
  await selector.getByRole('button', { name: 'Save track' }).click();
  await expect(selector).toBeHidden();
  await expect(dialog.getByText('Opus, over 64 kbps')).toBeVisible();
  await dialog.getByLabel('File format', { exact: true }).selectOption('MP4');
  await expect(dialog.getByText('Opus, over 64 kbps')).toBeHidden();
  await expect(dialog.getByText(`1 track selector was dropped: ${MP4_TOOLTIP}`)).toBeVisible();
  await dialog.getByLabel('File format', { exact: true }).selectOption('MKV');
  await dialog.getByLabel('File name', { exact: true }).fill('plain_{uuid}');
  await dialog.getByLabel('Storage').selectOption({ label: `${storageName} (media)` });
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  await expect(itemOf(page, 'plain_{uuid}')).toContainText('MKV');

  // What was saved, per preset.
  const saved = await apiStreamRecordings(request, token, stream.id);
  const byName = new Map(saved.map((recording) => [recording.fileName, recording]));
  expect(byName.get('show_{streamId}')).toMatchObject({
    fileFormat: 'MP4',
    autostart: false,
    storageId: storage.id,
    capture: {
      source: 'Incoming',
      tracks: [
        { type: 'Video', resolution: { condition: 'Max', width: null, height: null } },
        { type: 'Audio', resolution: null },
      ],
    },
  });
  expect(byName.get('nightly_{uuid}')).toMatchObject({
    fileFormat: 'MKV',
    autostart: true,
    capture: {
      tracks: [
        { type: 'Video', idx: 0 },
        { type: 'Audio', idx: 1 },
      ],
    },
  });
  expect(byName.get('plain_{uuid}')?.capture.tracks.map((track) => track.type)).toEqual(['Video', 'Audio']);
  expect(byName.get('show_{streamId}')?.callbackUri).toBeNull();
});

test('stop and delete follow the states nodes report; the info view and editing', async ({ page, request }) => {
  test.setTimeout(120_000);
  const stream = await apiCreateInput(request, token, { format: 'RTMP', caption: 'Stateful stream' }, node);
  const storageName = uniqueName('bucket');
  const storage = await apiCreateStorage(request, token, storageName);
  const capture = { source: 'Incoming' as const, tracks: [{ type: 'Video' as const }, { type: 'Audio' as const }] };
  const first = await apiCreateRecording(request, token, {
    streamId: stream.id,
    storageId: storage.id,
    fileName: 'first_{uuid}',
    capture,
  });
  const second = await apiCreateRecording(request, token, {
    streamId: stream.id,
    storageId: storage.id,
    fileName: 'second_{uuid}',
    capture,
  });

  await installPageClock(page);
  await page.goto(`/#/streams/recording/${stream.id}`);
  const one = page.locator(`[data-recording-id="${first.id}"]`);
  const two = page.locator(`[data-recording-id="${second.id}"]`);
  const stop = (item: Locator) => item.getByRole('button', { name: 'Stop' });
  const remove = (item: Locator) => item.getByRole('button', { name: 'Delete' });

  // Recording: stop yes, delete no. Stop once: the node still records until it reports otherwise.
  await expect(stop(one)).toBeEnabled();
  await expect(remove(one)).toBeDisabled();
  await stop(one).click();
  await expect(stop(one)).toBeDisabled();
  await expect(one).toContainText('Recording');
  await expect(one).toContainText(`Stopped by ${user.username}`);

  // Uploading: neither. Completed: delete only.
  await reportRecordingState(request, node, {
    recordingId: first.id,
    state: 'Uploading',
    duration: 42,
    length: 2_000_000,
    uploaded: 1_000_000,
  });
  await toNextPoll(page);
  await expect(one).toContainText('Uploading');
  await expect(one).toContainText('Uploaded: 1 MB');
  await expect(stop(one)).toBeDisabled();
  await expect(remove(one)).toBeDisabled();
  await reportRecordingState(request, node, {
    recordingId: first.id,
    state: 'Completed',
    uploaded: 2_000_000,
    messages: [{ level: 'info', text: 'Uploaded to the storage' }],
  });
  await toNextPoll(page);
  await expect(one).toContainText('Completed');
  await expect(one).toContainText('Uploaded to the storage');
  await expect(stop(one)).toBeDisabled();
  await expect(remove(one)).toBeEnabled();

  // Error: delete only.
  await reportRecordingState(request, node, {
    recordingId: second.id,
    state: 'Error',
    messages: [{ level: 'error', text: 'Storage refused the upload' }],
  });
  await toNextPoll(page);
  await expect(two).toContainText('Error');
  await expect(stop(two)).toBeDisabled();
  await expect(remove(two)).toBeEnabled();

  // The info view: the recording, its stream, its storage.
  await one.getByRole('button', { name: 'Info' }).click();
  const info = page.getByRole('dialog', { name: 'Recording' });
  await expect(info).toContainText('Stateful stream');
  await expect(info).toContainText(storageName);
  await expect(info).toContainText('00:00:42');
  await expect(info).toContainText('2 MB');
  await page.keyboard.press('Escape');
  await expect(info).toBeHidden();

  // Editing: format and autostart locked; no preset selected.
  await two.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit recording' });
  await expect(edit.getByLabel('File format', { exact: true })).toBeDisabled();
  await expect(edit.getByLabel('Autostart')).toBeDisabled();
  await notPressed(edit.getByRole('button', { name: 'All', exact: true }));
  await edit.getByLabel('File name', { exact: true }).fill('renamed_{uuid}');
  await edit.getByRole('button', { name: 'Update' }).click();
  await expect(edit).toBeHidden();
  await expect(two).toContainText('renamed_{uuid}');

  // Delete asks first; the backdrop cancels.
  await remove(two).click();
  const confirm = page
    .getByRole('dialog')
    .filter({ hasText: 'Do you really want to delete recording? This cannot be undone.' });
  await expect(confirm).toBeVisible();
  await page.mouse.click(5, 5);
  await expect(confirm).toBeHidden();
  await remove(two).click();
  await confirm.getByRole('button', { name: 'Ok' }).click();
  await expect(two).toBeHidden();
  await remove(one).click();
  await confirm.getByRole('button', { name: 'Ok' }).click();
  await expect(one).toBeHidden();
  await expect(page.getByText('No recordings yet.')).toBeVisible();
  await expect(notice(page, 'Something wrong')).toHaveCount(0);

  // A storage in use cannot be removed.
  await apiCreateRecording(request, token, { streamId: stream.id, storageId: storage.id, capture });
  await expect(api(request, token).call(storageRoutes.delete, { params: { id: storage.id } })).rejects.toMatchObject({
    status: 409,
  });
});
