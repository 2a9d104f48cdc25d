import { expect, test } from '@playwright/test';
import { createAccount, loginViaUi } from '../support/accounts';

test('a USER sees no Nodes or Accounts links and may not open those screens', async ({ page, request }) => {
  const account = await createAccount(request);
  await loginViaUi(page, account);
  const navigation = page.getByRole('navigation');
  for (const name of ['Streams', 'Storages', 'Node groups', 'Metrics', 'Billing']) {
    await expect(navigation.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await expect(navigation.getByRole('link', { name: 'Nodes', exact: true })).toHaveCount(0);
  await expect(navigation.getByRole('link', { name: 'Accounts', exact: true })).toHaveCount(0);

  await page.goto('/#/accounts');
  await expect(page.getByRole('heading', { level: 1, name: 'Accounts' })).toBeVisible();
  await expect(page.getByText('You are not permitted to view this page.')).toBeVisible();
});
