import { expect, type Locator, type Page, test } from '@playwright/test';
import { nodeRelayRoutes, RELAY_MESSAGES } from '@streamcloud/contract';
import { apiLogin, createAccount, loginViaUi, type TestAccount } from '../support/accounts';
import { api } from '../support/api';
import { installPageClock, toNextPoll } from '../support/clock';
import { apiCreateRelay, reportRelayState } from '../support/recordings-relays';
import { apiCreateInput, createMediaNode, type TestNode } from '../support/streams';

let user: TestAccount;
let token: string;
let node: TestNode;

test.beforeEach(async ({ page, request }) => {
  user = await createAccount(request);
  token = await apiLogin(request, { username: user.username, password: user.password });
  node = await createMediaNode(request);
  await loginViaUi(page, user);
});

const itemOf = (page: Page, text: string) => page.getByRole('listitem').filter({ hasText: text });

async function openNew(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Add relay' }).click();
  const dialog = page.getByRole('dialog', { name: 'New relay' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('creates a relay of each format with every validation message; the RTMP key stays masked', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const stream = await apiCreateInput(request, token, { format: 'RTMP', caption: 'Relayed stream' }, node);
  await page.goto(`/#/streams/relay/${stream.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Relays' })).toBeVisible();
  await expect(page.getByText('No relays yet.')).toBeVisible();

  // RTMP: the server is required and must be an rtmp(s) URL; submit disabled while invalid.
  let dialog = await openNew(page);
  await expect(dialog.getByLabel('Stream ID')).toHaveValue(stream.id);
  await expect(dialog.getByLabel('Format')).toHaveValue('RTMP');
  await expect(dialog.getByLabel('Autostart')).not.toBeChecked();
  const create = dialog.getByRole('button', { name: 'Create' });
  await expect(create).toBeDisabled();
  const server = dialog.getByLabel('Server');
  await server.fill('live.example.com');
  await expect(dialog.getByText(RELAY_MESSAGES.serverUrl)).toBeVisible();
  await server.fill('');
  await expect(dialog.getByText(RELAY_MESSAGES.serverRequired)).toBeVisible();
  await expect(create).toBeDisabled();
  await server.fill('rtmp://live.example.com/app');
  await dialog.getByLabel('Stream key').fill('sk-e2e-secret-1');
  // The callback URI: at most 255 characters; an empty one is dropped.
  const callback = dialog.getByLabel('Callback URI');
  await callback.fill(`https://hooks.example/${'a'.repeat(240)}`);
  await expect(dialog.getByText('Callback URI must be at most 255 characters')).toBeVisible();
  await expect(create).toBeDisabled();
  await callback.fill('');
  await expect(create).toBeEnabled();
  await create.click();
  await expect(dialog).toBeHidden();
  const rtmp = itemOf(page, 'rtmp://live.example.com/app');
  await expect(rtmp).toContainText('Relaying');
  await expect(rtmp).toContainText('Stream key: ••••••••');
  await expect(page.locator('body')).not.toContainText('sk-e2e-secret-1');

  // CMAF: the endpoint is required; timescales 0 to 96000.
  dialog = await openNew(page);
  await dialog.getByLabel('Format').selectOption('CMAF');
  const endpoint = dialog.getByLabel('Endpoint');
  await endpoint.fill('x');
  await expect(dialog.getByText(RELAY_MESSAGES.endpointUrl)).toBeVisible();
  await endpoint.fill('');
  await expect(dialog.getByText(RELAY_MESSAGES.endpointRequired)).toBeVisible();
  await endpoint.fill('https://ingest.example.com/pub/channel.isml');
  await dialog.getByLabel('Unified Streaming Platform').check();
  await dialog.getByLabel('Event ID').fill('event-7');
  for (const label of ['Video timescale', 'Audio timescale', 'Meta timescale']) {
    await dialog.getByLabel(label).fill('96001');
    await expect(dialog.getByText(RELAY_MESSAGES.timescale(label))).toBeVisible();
    await dialog.getByLabel(label).fill('-1');
    await expect(dialog.getByText(RELAY_MESSAGES.timescale(label))).toBeVisible();
    await dialog.getByLabel(label).fill(label === 'Video timescale' ? '90000' : '');
  }
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  await expect(itemOf(page, 'https://ingest.example.com/pub/channel.isml')).toContainText('Unified Streaming Platform');

  // UDP: a dotted IPv4 address; the port 0 to 65535, 8888 by default.
  dialog = await openNew(page);
  await dialog.getByLabel('Format').selectOption('UDPTS');
  await expect(dialog.getByLabel('Port')).toHaveValue('8888');
  const ip = dialog.getByLabel('IP address');
  await ip.fill('239.1.2');
  await expect(dialog.getByText(RELAY_MESSAGES.ipAddress)).toBeVisible();
  await ip.fill('');
  await expect(dialog.getByText(RELAY_MESSAGES.ipAddressRequired)).toBeVisible();
  await ip.fill('239.1.2.3');
  await dialog.getByLabel('Port').fill('65536');
  await expect(dialog.getByText(RELAY_MESSAGES.port)).toBeVisible();
  await dialog.getByLabel('Port').fill('8888');
  await dialog.getByLabel('Autostart').check();
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('region', { name: 'Autostarting' })).toContainText('udp://239.1.2.3:8888');

  // Editing: format and autostart locked, the key masked; a blank key keeps it, the node gets it in clear.
  await rtmp.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit relay' });
  await expect(edit.getByLabel('Format')).toBeDisabled();
  await expect(edit.getByLabel('Autostart')).toBeDisabled();
  await expect(edit.getByLabel('Stream key')).toHaveValue('');
  await expect(edit.getByLabel('Stream key')).toHaveAttribute('placeholder', '•••••••• (hidden)');
  await edit.getByLabel('Server').fill('rtmps://backup.example.com/app');
  await edit.getByRole('button', { name: 'Update' }).click();
  await expect(edit).toBeHidden();
  await expect(itemOf(page, 'rtmps://backup.example.com/app')).toContainText('Stream key: ••••••••');
  const relays = await api(request, node.token).call(nodeRelayRoutes.relays);
  const relayed = relays.find((relay) => relay.format === 'RTMP' && relay.streamId === stream.id);
  expect(relayed?.output).toMatchObject({ server: 'rtmps://backup.example.com/app', key: 'sk-e2e-secret-1' });
});

test('stop and delete follow the states nodes report', async ({ page, request }) => {
  test.setTimeout(120_000);
  const stream = await apiCreateInput(request, token, { format: 'RTMP' }, node);
  const first = await apiCreateRelay(request, token, {
    streamId: stream.id,
    format: 'UDPTS',
    output: { ipAddress: '239.9.9.1' },
  });
  const second = await apiCreateRelay(request, token, {
    streamId: stream.id,
    format: 'UDPTS',
    output: { ipAddress: '239.9.9.2' },
  });
  await installPageClock(page);
  await page.goto(`/#/streams/relay/${stream.id}`);
  const one = page.locator(`[data-relay-id="${first.id}"]`);
  const two = page.locator(`[data-relay-id="${second.id}"]`);
  const stop = (item: Locator) => item.getByRole('button', { name: 'Stop' });
  const remove = (item: Locator) => item.getByRole('button', { name: 'Delete' });

  // Relaying: stop yes (once), delete no.
  await expect(stop(one)).toBeEnabled();
  await expect(remove(one)).toBeDisabled();
  await stop(one).click();
  await expect(stop(one)).toBeDisabled();
  await expect(one).toContainText(`Stopped by ${user.username}`);
  await expect(remove(one)).toBeDisabled();

  // Completed and Error: delete only.
  await reportRelayState(request, node, { relayId: first.id, state: 'Completed', uploaded: 3_000_000 });
  await toNextPoll(page);
  await expect(one).toContainText('Completed');
  await expect(one).toContainText('Uploaded: 3 MB');
  await expect(remove(one)).toBeEnabled();
  await expect(stop(one)).toBeDisabled();
  await reportRelayState(request, node, {
    relayId: second.id,
    state: 'Error',
    messages: [{ level: 'error', text: 'Destination unreachable' }],
  });
  await toNextPoll(page);
  await expect(two).toContainText('Error');
  await expect(two).toContainText('Destination unreachable');
  await expect(stop(two)).toBeDisabled();
  await expect(remove(two)).toBeEnabled();

  // The info view, closed by Escape.
  await two.getByRole('button', { name: 'Info' }).click();
  const info = page.getByRole('dialog', { name: 'Relay' });
  await expect(info).toContainText('239.9.9.2');
  await expect(info).toContainText('Destination unreachable');
  await page.keyboard.press('Escape');
  await expect(info).toBeHidden();

  // Delete asks first.
  const confirm = page
    .getByRole('dialog')
    .filter({ hasText: 'Do you really want to delete relay? This cannot be undone.' });
  await remove(one).click();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(one).toBeVisible();
  await remove(one).click();
  await confirm.getByRole('button', { name: 'Ok' }).click();
  await expect(one).toBeHidden();
  await remove(two).click();
  await confirm.getByRole('button', { name: 'Ok' }).click();
  await expect(page.getByText('No relays yet.')).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Something wrong' })).toHaveCount(0);
});
