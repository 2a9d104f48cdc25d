import { expect, test } from '@playwright/test';
import { createAccount, loginViaUi } from '../support/accounts';

test('an account creates an API key, uses it with fetch, and revokes it', async ({ page, request, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const customer = await createAccount(request);
  await loginViaUi(page, customer);
  await page.getByRole('button', { name: customer.username, exact: true }).click();
  await page.getByRole('button', { name: 'Account settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();
  await expect(page.getByText('No API keys yet.')).toBeVisible();

  await page.getByRole('button', { name: 'Create API key' }).click();
  const form = page.getByRole('form', { name: 'Create API key' });
  await form.getByLabel('Name').fill('deploy script');
  await form.getByLabel('Scope').selectOption('write');
  await form.getByLabel('Expires').selectOption({ label: '30 days' });
  await form.getByRole('button', { name: 'Create' }).click();

  const dialog = page.getByRole('dialog', { name: 'New API key' });
  const shown = dialog.getByLabel('API key');
  await expect(shown).toHaveValue(/^sck_[A-Za-z0-9_-]{43}$/);
  const key = await shown.inputValue();
  await dialog.getByRole('button', { name: 'Copy' }).click();
  await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await dialog.getByRole('button', { name: 'Done' }).click();

  const keys = page.getByRole('table', { name: 'API keys' });
  const row = keys.getByRole('row').filter({ hasText: 'deploy script' });
  await expect(row.getByRole('cell').nth(1)).toHaveText(`${key.slice(0, 10)}…`);
  await expect(row.getByRole('cell').nth(5)).toHaveText('Never');

  // The page's own fetch carries the anti-forgery cookie but not its header: a key needs none.
  const created = await page.evaluate(async (bearer) => {
    const response = await fetch('/api/v1/inputs', {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: '{}',
    });
    return { status: response.status, limit: response.headers.get('RateLimit-Limit') };
  }, key);
  expect(created).toEqual({ status: 201, limit: '600' });

  await page.reload();
  await expect(row.getByRole('cell').nth(5)).toHaveText(/ from /);
  await row.getByRole('button', { name: 'Revoke deploy script' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke API key' });
  await expect(confirm).toContainText('deploy script');
  await confirm.getByRole('button', { name: 'Ok', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The API key was revoked.' })).toBeVisible();
  await expect(page.getByText('No API keys yet.')).toBeVisible();

  const refused = await page.evaluate(
    async (bearer) =>
      (await fetch('/api/v1/accounts/whoami', { headers: { authorization: `Bearer ${bearer}` } })).status,
    key,
  );
  expect(refused).toBe(401);
});
