import { expect, type Page, test } from '@playwright/test';
import { twoFactorRoutes } from '@streamcloud/contract';
// The API's own RFC 6238 code (tested against the RFC's vectors): the test computes what an authenticator app shows.
import { base32Decode, totp } from '../../apps/api/src/lib/totp';
import { apiLogin, createAccount, submitLogin, type TestAccount } from '../support/accounts';
import { api } from '../support/api';

const STEP_MS = 30_000;

async function logout(page: Page, account: TestAccount): Promise<void> {
  await page.getByRole('button', { name: account.username, exact: true }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
}

/**
 * Enables two-factor sign-in in Account settings (the page being shown), with a code computed here. The
 * account's password is asked again first; a wrong one is refused in an alert with sign-in's words.
 */
async function enrolInPage(page: Page, account: TestAccount): Promise<{ secret: Buffer; recoveryCode: string }> {
  await page.getByRole('button', { name: 'Enable', exact: true }).click();
  const reauth = page.getByRole('form', { name: 'Confirm your password' });
  await reauth.getByLabel('Password').fill(`${account.password}-wrong`);
  await reauth.getByRole('button', { name: 'Continue' }).click();
  await expect(reauth.getByRole('alert')).toHaveText('Invalid username or password');
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toHaveCount(0);
  await reauth.getByLabel('Password').fill(account.password);
  await reauth.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = base32Decode(await page.getByLabel('Manual key').inputValue());
  if (!secret) throw new Error('the manual key is not base32');
  const confirm = page.getByRole('form', { name: 'Confirm two-factor authentication' });
  await confirm.getByLabel('Authentication code').fill(totp(secret, new Date()));
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recoveryCode = (await codes.first().textContent()) ?? '';
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText(/Two-factor authentication is on since .*\. 10 recovery codes left\./)).toBeVisible();
  return { secret, recoveryCode };
}

async function passwordThenCode(page: Page, account: TestAccount, code: string): Promise<void> {
  await submitLogin(page, account);
  const step = page.getByRole('form', { name: 'Two-factor authentication' });
  await step.getByLabel('Authentication code').fill(code);
  await step.getByRole('button', { name: 'Verify' }).click();
}

test('an account enrols two-factor sign-in, then signs in with a code and once with a recovery code', async ({
  page,
  request,
}) => {
  // Seven password hashes (five sign-ins, the password asked twice before enrolment): seconds each on a loaded machine.
  test.setTimeout(60_000);
  const customer = await createAccount(request);
  await page.goto('/#/login');
  await submitLogin(page, customer);
  await page.getByRole('button', { name: customer.username, exact: true }).click();
  await page.getByRole('button', { name: 'Account settings' }).click();
  await expect(page.getByText('Two-factor authentication is off: signing in needs your password only.')).toBeVisible();

  const { secret, recoveryCode } = await enrolInPage(page, customer);
  await logout(page, customer);

  // A wrong code is refused in the page; the next time step's code (within the ±1 step window, not the step
  // the enrolment used) signs in.
  await passwordThenCode(page, customer, '000000' === totp(secret, new Date()) ? '111111' : '000000');
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid authentication code' })).toBeVisible();
  const step = page.getByRole('form', { name: 'Two-factor authentication' });
  await step.getByLabel('Authentication code').fill(totp(secret, new Date(Date.now() + STEP_MS)));
  await step.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('button', { name: customer.username, exact: true })).toBeVisible();
  await logout(page, customer);

  await passwordThenCode(page, customer, recoveryCode);
  await expect(page.getByRole('button', { name: customer.username, exact: true })).toBeVisible();
  await logout(page, customer);
  await passwordThenCode(page, customer, recoveryCode);
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid authentication code' })).toBeVisible();
  await expect(page.getByRole('button', { name: customer.username, exact: true })).toHaveCount(0);
});

test('an admin without two-factor sign-in, when the setting requires it, is sent to enrolment after signing in', async ({
  page,
  request,
}) => {
  // The setting is the whole product's: it is turned on by an admin that has two-factor sign-in (one without
  // it could not turn it off again) and off again whatever happens, so no other test's admin is held up.
  test.setTimeout(60_000);
  const guard = await createAccount(request, 'ADMIN');
  const guardApi = api(request, await apiLogin(request, { username: guard.username, password: guard.password }));
  const { secret } = await guardApi.call(twoFactorRoutes.start, { body: { password: guard.password } });
  await guardApi.call(twoFactorRoutes.confirm, { body: { code: totp(base32Decode(secret) as Buffer, new Date()) } });
  const newcomer = await createAccount(request, 'ADMIN');
  await guardApi.call(twoFactorRoutes.updateSettings, { body: { requireTwoFactorForAdmins: true } });
  try {
    await page.goto('/#/login');
    await submitLogin(page, newcomer);
    await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();
    await expect(
      page.getByText(
        'Your administrator requires two-factor authentication for administrator accounts: enable it to continue.',
      ),
    ).toBeVisible();
    await expect(page).toHaveURL(/#\/account\/settings$/);
    // No other page until it is enabled.
    await page.goto('/#/streams');
    await expect(page).toHaveURL(/#\/account\/settings$/);
    await page.getByRole('navigation').getByRole('link', { name: 'Audit', exact: true }).click();
    await expect(page).toHaveURL(/#\/account\/settings$/);

    await enrolInPage(page, newcomer);
    await page.getByRole('navigation').getByRole('link', { name: 'Audit', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Audit' })).toBeVisible();
  } finally {
    await guardApi.call(twoFactorRoutes.updateSettings, { body: { requireTwoFactorForAdmins: false } });
  }
});
