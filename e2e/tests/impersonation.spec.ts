import { expect, type Page, test } from '@playwright/test';
import { ADMIN, loginViaUi, uniqueName } from '../support/accounts';

async function openUserMenu(page: Page, username: string) {
  await page.getByRole('button', { name: username, exact: true }).click();
}

test('an admin creates a USER, impersonates it, stops, and logs out', async ({ page }) => {
  const visited: string[] = [];
  const problems: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(new URL(frame.url()).hash);
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) problems.push(message.text());
  });

  await loginViaUi(page, ADMIN);
  const navigation = page.getByRole('navigation');
  await navigation.getByRole('link', { name: 'Accounts', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Accounts' })).toBeVisible();

  const username = uniqueName('customer');
  const form = page.getByRole('form', { name: 'New account' });
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Password').fill('customer-password-1');
  await expect(form.getByLabel('Role')).toHaveValue('USER');
  await form.getByRole('button', { name: 'Create account' }).click();

  const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: username, exact: true }) });
  await expect(row.getByRole('cell', { name: 'USER', exact: true })).toBeVisible();
  await expect(row.getByRole('link', { name: 'Streams' })).toHaveAttribute('href', /#\/streams\/account\/[\w-]+$/);
  await expect(row.getByRole('link', { name: 'Billing' })).toHaveAttribute('href', /#\/billing\/account\/[\w-]+$/);

  await row.getByRole('button', { name: 'Impersonate' }).click();
  await expect(page).toHaveURL(/#\/streams$/);
  await expect(page.getByText('Impersonating', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: username, exact: true })).toBeVisible();
  await expect(navigation.getByRole('link', { name: 'Nodes', exact: true })).toHaveCount(0);
  await expect(navigation.getByRole('link', { name: 'Accounts', exact: true })).toHaveCount(0);

  await openUserMenu(page, username);
  await page.getByRole('button', { name: 'Stop Impersonation' }).click();
  // The user's list is shown already: wait for the navigation through the refresh, then back to /streams.
  await expect.poll(() => visited).toContain('#/streams?refresh=true');
  await expect(page).toHaveURL(/#\/streams$/);
  await expect(page.getByRole('button', { name: ADMIN.username, exact: true })).toBeVisible();
  await expect(page.getByText('Impersonating', { exact: true })).toHaveCount(0);
  await expect(navigation.getByRole('link', { name: 'Accounts', exact: true })).toBeVisible();
  await expect(navigation.getByRole('link', { name: 'Nodes', exact: true })).toBeVisible();

  await openUserMenu(page, ADMIN.username);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/#\/login$/);
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  await expect(page.getByRole('navigation')).toHaveCount(0);

  await page.goto('/#/accounts');
  await expect(page).toHaveURL(/#\/login\?redirect=%2Faccounts$/);
  expect(problems).toEqual([]);
});
