import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { nodeGroupRoutes, nodeRoutes } from '@streamcloud/contract';
import { ADMIN, apiLogin, createAccount, loginViaUi, uniqueName } from '../support/accounts';
import { api } from '../support/api';
import { apiCreateNode as createNode } from '../support/nodes';

/** The API as the admin. */
const asAdmin = async (request: APIRequestContext) => api(request, await apiLogin(request, ADMIN));

const apiCreateNode = async (request: APIRequestContext, name: string) =>
  (
    await createNode(request, {
      name,
      connection: { hostname: `${name}.example.net` },
      location: { description: 'Frankfurt' },
      opened: true,
    })
  ).id;

const alertWith = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });
const settingsMenu = (page: Page) =>
  page.locator('.dropdown').filter({ has: page.getByRole('button', { name: 'Settings' }) });
const rulesList = (page: Page) => page.getByRole('list', { name: 'Scaling rules' });

async function openNodeGroups(page: Page) {
  await page.getByRole('navigation').getByRole('link', { name: 'Node groups', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Node groups' })).toBeVisible();
}

test('an admin creates, edits and deletes a node group', async ({ page, request }) => {
  const owner = await createAccount(request, 'USER');
  const name = uniqueName('group');
  await loginViaUi(page, ADMIN);
  await openNodeGroups(page);

  await page.getByRole('button', { name: 'Create node group' }).click();
  let dialog = page.getByRole('dialog', { name: 'Create node group' });
  await expect(dialog).toBeVisible();
  // Escape and the close button close the modal.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Create node group' }).click();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('button', { name: 'Create node group' }).click();
  dialog = page.getByRole('dialog', { name: 'Create node group' });
  const create = dialog.getByRole('button', { name: 'Create' });
  await dialog.getByLabel('Name').fill('n'.repeat(256));
  await expect(dialog.getByText('Name must be at most 255 characters')).toBeVisible();
  await expect(create).toBeDisabled();
  await dialog.getByLabel('Name').fill('');
  await expect(dialog.getByText('Name is required')).toBeVisible();
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Description').fill('Frankfurt edge');
  await dialog.getByLabel('Assignment').selectOption('Outgoing');
  await dialog.getByLabel('Owner').selectOption({ label: owner.username });
  await create.click();
  await expect(dialog).toBeHidden();

  // Listed under Customers, in its owner's block.
  const block = page.getByRole('list', { name: owner.username, exact: true });
  await expect(block.getByRole('link', { name })).toBeVisible();
  await expect(block.getByText('Outgoing')).toBeVisible();
  await expect(block.getByText('Frankfurt edge')).toBeVisible();
  await block.getByRole('link', { name }).click();

  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText(`Owner: ${owner.username}`)).toBeVisible();
  await expect(page.getByLabel('Scaling', { exact: true })).not.toBeChecked();

  // The scaling toggle is saved at once.
  await page.getByLabel('Scaling', { exact: true }).check();
  await page.reload();
  await expect(page.getByLabel('Scaling', { exact: true })).toBeChecked();

  await page.getByRole('button', { name: 'Settings' }).click();
  await settingsMenu(page).getByRole('button', { name: 'Edit' }).click();
  dialog = page.getByRole('dialog', { name: 'Edit node group' });
  await expect(dialog.getByLabel('Name')).toHaveValue(name);
  await dialog.getByLabel('Name').fill(`${name}-renamed`);
  await dialog.getByLabel('Owner').selectOption({ label: 'Streaming Cloud' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: `${name}-renamed` })).toBeVisible();
  await expect(page.getByText('Owner: Streaming Cloud')).toBeVisible();

  await page.getByRole('button', { name: 'Settings' }).click();
  await settingsMenu(page).getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Ok' }).click();
  await expect(page).toHaveURL(/#\/node-groups$/);
  await expect(page.getByRole('link', { name: `${name}-renamed` })).toHaveCount(0);
});

test('an admin adds, edits, toggles and removes scaling rules', async ({ page, request }) => {
  const name = uniqueName('scaling');
  const group = await (await asAdmin(request)).call(nodeGroupRoutes.create, { body: { name, assignment: 'Common' } });
  await loginViaUi(page, ADMIN);
  await page.goto(`/#/node-groups/${group.id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText('No scaling rules.')).toBeVisible();

  await page.getByRole('button', { name: 'Add rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add scaling rule' });
  const add = dialog.getByRole('button', { name: 'Add' });
  // The defaults of section 5.
  await expect(dialog.getByLabel('Amount')).toHaveValue('1');
  await expect(dialog.getByLabel('Action timeout (seconds)')).toHaveValue('0');
  await expect(dialog.getByLabel('Bandwidth limit (Mbps)')).toHaveValue('1000');
  await expect(dialog.getByText('1 gbps')).toBeVisible();
  await expect(dialog.getByLabel('Settings type')).toHaveValue('Liner');

  // Every limit, with submit disabled while invalid.
  const invalid: Array<[string, string, string]> = [
    ['Value (%)', '101', 'Value must be between 0 and 100'],
    ['Duration (seconds)', '301', 'Duration must be between 0 and 300 seconds'],
    ['Amount', '0', 'Amount must be between 1 and 32'],
    ['Action timeout (seconds)', '3601', 'Action timeout must be between 0 and 3600 seconds'],
    ['Bandwidth limit (Mbps)', '-1', 'Bandwidth limit must be at least 0'],
  ];
  for (const [label, value, message] of invalid) {
    const field = dialog.getByLabel(label, { exact: true });
    const before = await field.inputValue();
    await field.fill(value);
    await expect(dialog.getByText(message)).toBeVisible();
    await expect(add).toBeDisabled();
    await field.fill(before);
    await expect(dialog.getByText(message)).toBeHidden();
  }
  await dialog.getByLabel('Value (%)').fill('');
  await expect(dialog.getByText('Value is required')).toBeVisible();
  await expect(add).toBeDisabled();

  // Changing the condition type resets the settings.
  await dialog.getByLabel('Condition type').selectOption('GroupFull');
  await expect(dialog.getByLabel('Settings type')).toHaveValue('None');
  await expect(dialog.getByLabel('Value (%)')).toHaveValue('80');
  await dialog.getByLabel('Condition type').selectOption('CPUGroupAvg');
  await expect(dialog.getByLabel('Settings type')).toHaveValue('Liner');

  await dialog.getByLabel('Value (%)').fill('75');
  await dialog.getByLabel('Duration (seconds)').fill('120');
  await dialog.getByLabel('Bandwidth limit (Mbps)').fill('2500');
  await expect(dialog.getByText('2.5 gbps')).toBeVisible();
  await dialog.getByLabel('Provider', { exact: true }).selectOption('DigitalOcean');
  await expect(add).toBeEnabled();
  await add.click();
  await expect(dialog).toBeHidden();

  const rule = rulesList(page).getByRole('listitem').first();
  await expect(rule).toContainText('CPU group average > 75% for 120 s → Increase by 1 through DigitalOcean');
  await expect(rule).toContainText('node bandwidth 2.5 gbps');

  // Edit: backdrop click closes without saving; then save a change.
  await rule.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit scaling rule' });
  await expect(edit.getByLabel('Value (%)')).toHaveValue('75');
  await page.mouse.click(5, 5);
  await expect(edit).toBeHidden();
  await rule.getByRole('button', { name: 'Edit' }).click();
  await edit.getByLabel('Action type').selectOption('Reduce');
  await edit.getByLabel('Comparison').selectOption('Less');
  await edit.getByLabel('Value (%)').fill('20');
  await edit.getByLabel('Amount').fill('2');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(rule).toContainText('CPU group average < 20% for 120 s → Reduce by 2');

  // The enabled toggle is saved at once.
  await expect(rule.getByLabel('Enabled')).toBeChecked();
  await rule.getByLabel('Enabled').uncheck();
  await page.reload();
  await expect(rulesList(page).getByRole('listitem').first().getByLabel('Enabled')).not.toBeChecked();

  await rulesList(page).getByRole('listitem').first().getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Ok' }).click();
  await expect(page.getByText('No scaling rules.')).toBeVisible();
});

test('an admin picks persistent nodes; chosen ones are attached and removed ones detached', async ({
  page,
  request,
}) => {
  const name = uniqueName('picker');
  const first = uniqueName('edge-a');
  const second = uniqueName('edge-b');
  const firstId = await apiCreateNode(request, first);
  const secondId = await apiCreateNode(request, second);
  const group = await (await asAdmin(request)).call(nodeGroupRoutes.create, {
    body: { name, assignment: 'Ingestion' },
  });
  await (await asAdmin(request)).call(nodeGroupRoutes.attachNode, { params: { id: group.id, nodeId: firstId } });

  await loginViaUi(page, ADMIN);
  await page.goto(`/#/node-groups/${group.id}`);
  const persistent = page.getByRole('table', { name: 'Persistent' });
  await expect(persistent.getByRole('link', { name: first })).toBeVisible();
  const row = persistent.getByRole('row').filter({ hasText: first });
  await expect(row).toContainText(`${first}.example.net`);
  await expect(row).toContainText('Frankfurt');
  await expect(row.getByText('Opened')).toHaveClass(/bg-success/);
  await expect(row.getByText('Enabled')).toHaveClass(/bg-danger/);

  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('button', { name: 'Persistent nodes' }).click();
  const picker = page.getByRole('dialog', { name: 'Persistent nodes' });
  const firstBox: Locator = picker.getByLabel(first);
  await expect(firstBox).toBeChecked();
  await expect(picker.getByLabel(second)).not.toBeChecked();
  await firstBox.uncheck();
  await picker.getByLabel(second).check();
  await picker.getByRole('button', { name: 'Save' }).click();
  await expect(picker).toBeHidden();

  await expect(persistent.getByRole('link', { name: second })).toBeVisible();
  await expect(persistent.getByRole('link', { name: first })).toHaveCount(0);
  const saved = await (await asAdmin(request)).call(nodeGroupRoutes.get, { params: { id: group.id } });
  expect(saved.resources.map((r) => [r.type, r.node.id])).toEqual([['Persistent', secondId]]);
  // The detached node still exists.
  await (await asAdmin(request)).call(nodeRoutes.get, { params: { id: firstId } });

  // 'Allocate node' without any rule: the server says why.
  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('button', { name: 'Allocate node' }).click();
  await expect(alertWith(page, 'Add a scaling rule first')).toBeVisible();
});

test('a USER sees its own groups read-only and no other group', async ({ page, request }) => {
  const user = await createAccount(request, 'USER');
  const other = await createAccount(request, 'USER');
  const mine = uniqueName('mine');
  const node = uniqueName('edge-u');
  const nodeId = await apiCreateNode(request, node);
  const admin = await asAdmin(request);
  const group = await admin.call(nodeGroupRoutes.create, {
    body: { name: mine, assignment: 'Outgoing', ownerId: user.id },
  });
  await admin.call(nodeGroupRoutes.update, { params: { id: group.id }, body: { scalable: true } });
  await admin.call(nodeGroupRoutes.addRule, {
    params: { id: group.id },
    body: {
      condition: { type: 'GroupFull', settings: { type: 'None', comparison: 'More', value: 0, duration: 30 } },
      action: { type: 'Increase', settings: { provider: 'AWS' } },
    },
  });
  await admin.call(nodeGroupRoutes.attachNode, { params: { id: group.id, nodeId } });
  const theirs = await admin.call(nodeGroupRoutes.create, {
    body: { name: uniqueName('theirs'), assignment: 'Common', ownerId: other.id },
  });

  await loginViaUi(page, user);
  await openNodeGroups(page);
  await expect(page.getByRole('button', { name: 'Create node group' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Streaming Cloud' })).toHaveCount(0);
  const list = page.getByRole('list', { name: 'Node groups' });
  await expect(list.getByRole('link')).toHaveText([mine]);
  await list.getByRole('link', { name: mine }).click();

  await expect(page.getByRole('heading', { level: 1, name: mine })).toBeVisible();
  await expect(page.getByLabel('Scaling', { exact: true })).toBeChecked();
  await expect(page.getByLabel('Scaling', { exact: true })).toBeDisabled();
  const rule = rulesList(page).getByRole('listitem').first();
  await expect(rule).toContainText('Group full for 30 s → Increase by 1 through AWS');
  await expect(rule.getByLabel('Enabled')).toBeDisabled();
  for (const control of ['Settings', 'Add rule', 'Edit', 'Remove', 'Actions']) {
    await expect(page.getByRole('button', { name: control, exact: true })).toHaveCount(0);
  }
  await expect(page.getByText(/^Owner:/)).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'Persistent' })).toContainText(node);

  // Another owner's group does not exist for this USER.
  await page.goto(`/#/node-groups/${theirs.id}`);
  await expect(alertWith(page, 'Node group not found')).toBeVisible();
});
