import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { accountRoutes, streamRoutes } from '@streamcloud/contract';
import { ADMIN, apiLogin, createAccount, loginViaUi } from '../support/accounts';
import { api } from '../support/api';

test('an admin filters the audit page to a write made while impersonating, exports it, and the user sees it', async ({
  page,
  request,
}) => {
  const customer = await createAccount(request);
  const adminToken = await apiLogin(request, ADMIN);
  const { token } = await api(request, adminToken).call(accountRoutes.impersonate, { params: { id: customer.id } });
  const stream = await api(request, token).call(streamRoutes.create, { body: {} });

  await loginViaUi(page, ADMIN);
  await page.getByRole('navigation').getByRole('link', { name: 'Audit', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit' })).toBeVisible();
  const filters = page.getByRole('form', { name: 'Audit filters' });
  await filters.getByLabel('Account').selectOption({ label: customer.username });
  await filters.getByLabel('Resource type').selectOption('input');
  await filters.getByLabel('Action').fill('input.create');
  await filters.getByRole('button', { name: 'Filter' }).click();

  const entries = page.getByRole('table', { name: 'Audit entries' });
  const row = entries.getByRole('row').filter({ hasText: stream.id });
  await expect(row.getByRole('cell')).toHaveText([
    /\d/,
    customer.username,
    ADMIN.username,
    'input.create',
    `input ${stream.id}`,
    /^[\d.:a-f]+$/,
    'success',
  ]);
  await expect(entries.getByRole('row')).toHaveCount(2);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await (await download).path();
  const csv = (await readFile(file, 'utf8')).trimEnd().split('\r\n');
  expect(csv).toHaveLength(2);
  expect(csv[1]).toContain(`,${customer.username},${ADMIN.username},input.create,input,${stream.id},`);

  await page.getByRole('button', { name: ADMIN.username, exact: true }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await loginViaUi(page, customer);
  await page.getByRole('button', { name: customer.username, exact: true }).click();
  await page.getByRole('button', { name: 'Account activity' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Account activity' })).toBeVisible();
  const own = page.getByRole('table', { name: 'Audit entries' }).getByRole('row').filter({ hasText: stream.id });
  // Who acted (the admin), what and when; not the admin's own network address.
  await expect(own.getByRole('cell')).toHaveText([
    /\d/,
    customer.username,
    ADMIN.username,
    'input.create',
    `input ${stream.id}`,
    'Not shown (an administrator)',
    'success',
  ]);
});
