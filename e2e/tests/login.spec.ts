import { expect, test } from '@playwright/test';
import { createAccount, submitLogin, uniqueName } from '../support/accounts';

test.describe('login', () => {
  test('asks for both fields with the spec texts', async ({ page }) => {
    await page.goto('/#/login');
    await expect(page.getByRole('navigation')).toHaveCount(0);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByText('Username is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
    await expect(page).toHaveURL(/#\/login$/);
  });

  test('says so when the password is wrong', async ({ page, request }) => {
    const account = await createAccount(request);
    await page.goto('/#/login');
    await submitLogin(page, { username: account.username, password: 'not-the-password' });
    await expect(page.getByRole('alert')).toHaveText('Invalid credentials. Please check your username and password.');
    await expect(page).toHaveURL(/#\/login$/);
  });

  test('answers an unknown user exactly like a wrong password', async ({ page }) => {
    await page.goto('/#/login');
    await submitLogin(page, { username: uniqueName('nobody'), password: 'whatever-1' });
    await expect(page.getByRole('alert')).toHaveText('Invalid credentials. Please check your username and password.');
  });

  test('sends a visitor to the login page and back to where it was going', async ({ page, request }) => {
    const account = await createAccount(request);
    await page.goto('/#/metrics');
    await expect(page).toHaveURL(/#\/login\?redirect=%2Fmetrics$/);
    await submitLogin(page, { username: `  ${account.username} `, password: account.password });
    await expect(page).toHaveURL(/#\/metrics$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Metrics' })).toBeVisible();
  });
});
