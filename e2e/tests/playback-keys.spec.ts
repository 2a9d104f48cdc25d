import { randomUUID, sign } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { apiLogin, createAccount, loginViaUi } from '../support/accounts';
import { apiCreateInput, apiCreateOutput } from '../support/streams';

/** Mints an ES256 playback token as a customer's backend would, with the PEM the console showed once. */
function mint(privateKeyPem: string, kid: string, claims: Record<string, unknown>): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part({ alg: 'ES256', kid, typ: 'JWT' })}.${part(claims)}`;
  const signature = sign('sha256', Buffer.from(input), { key: privateKeyPem, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

async function testToken(page: Page, fields: { token: string; outputId: string; country?: string }) {
  const form = page.getByRole('form', { name: 'Test a token' });
  await form.getByLabel('Token', { exact: true }).fill(fields.token);
  await form.getByLabel('Output ID').fill(fields.outputId);
  await form.getByLabel('Viewer country').fill(fields.country ?? '');
  await form.getByRole('button', { name: 'Test token' }).click();
}

test('an account creates a playback signing key, tests tokens signed with it, and revokes it', async ({
  page,
  request,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const customer = await createAccount(request);
  const token = await apiLogin(request, { username: customer.username, password: customer.password });
  const stream = await apiCreateInput(request, token);
  // Only a Signed output reads playback tokens (a Public one plays anyone): the test page says which it is.
  const output = await apiCreateOutput(request, token, stream.id, 'HLS', { access: 'Signed' });
  await loginViaUi(page, customer);
  await page.getByRole('button', { name: customer.username, exact: true }).click();
  await page.getByRole('button', { name: 'Playback signing keys' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Playback signing keys' })).toBeVisible();
  await expect(page.getByText('No playback signing keys yet.')).toBeVisible();

  // A blank name is refused under the field, with the contract's text.
  await page.getByRole('button', { name: 'Create signing key' }).click();
  const form = page.getByRole('form', { name: 'Create playback signing key' });
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form.getByText('Name is required')).toBeVisible();
  await form.getByLabel('Name').fill('shop backend');
  await form.getByLabel('Algorithm').selectOption('ES256');
  await form.getByRole('button', { name: 'Create' }).click();

  const dialog = page.getByRole('dialog', { name: 'New playback signing key' });
  const pem = dialog.getByRole('textbox', { name: 'Private key (PKCS#8 PEM)' });
  await expect(pem).toHaveValue(/^-----BEGIN PRIVATE KEY-----\n/);
  const privateKeyPem = await pem.inputValue();
  await dialog.getByRole('button', { name: 'Copy Private key (PKCS#8 PEM)' }).click();
  await expect(dialog.getByRole('button', { name: 'Copy Private key (PKCS#8 PEM)' })).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(privateKeyPem);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Download Private key (PKCS#8 PEM)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('shop-backend.private.pem');
  expect(await readFile(await download.path(), 'utf8')).toBe(privateKeyPem);
  const kid = await dialog.getByRole('textbox', { name: 'Key id (kid)' }).inputValue();
  await dialog.getByRole('button', { name: 'Done' }).click();

  const row = page
    .getByRole('table', { name: 'Playback signing keys' })
    .getByRole('row')
    .filter({ hasText: 'shop backend' });
  await expect(row.getByRole('cell').nth(1)).toHaveText(kid);
  await expect(row.getByRole('cell').nth(4)).toHaveText('Active');

  const now = Math.floor(Date.now() / 1000);
  const signed = mint(privateKeyPem, kid, { sub: output.id, exp: now + 600, jti: 'e2e', countries: ['FR'] });
  await testToken(page, { token: signed, outputId: output.id, country: 'FR' });
  const verdict = page.getByRole('alert').filter({ hasText: /^(Accepted|Refused)/ });
  await expect(verdict).toHaveText('Accepted: This output would play the token');
  await expect(page.getByTestId('inspected-output-access')).toHaveText('Output access: Signed');
  await expect(page.getByRole('region', { name: 'Claims' })).toContainText('"jti": "e2e"');

  await testToken(page, { token: signed, outputId: output.id, country: 'US' });
  await expect(verdict).toHaveText('Refused: Not allowed from your country (wrong_country)');
  await testToken(page, { token: mint(privateKeyPem, kid, { sub: output.id, exp: now - 1 }), outputId: output.id });
  await expect(verdict).toHaveText('Refused: The token expired (expired)');

  // Bad input is refused under its field; an output of no one's is not found.
  await testToken(page, { token: signed, outputId: output.id, country: 'FRA' });
  await expect(page.getByText('Country must be a two-letter ISO code such as FR')).toBeVisible();
  await testToken(page, { token: signed, outputId: randomUUID() });
  await expect(page.getByRole('alert').filter({ hasText: 'Output not found' })).toBeVisible();

  // One sold ticket withdrawn by its jti.
  const revokeForm = page.getByRole('form', { name: 'Revoke a token' });
  await revokeForm.getByLabel('Token id (jti)').fill('e2e');
  await revokeForm.getByRole('button', { name: 'Revoke token' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Tokens with the id "e2e" are revoked.' })).toBeVisible();
  await testToken(page, { token: signed, outputId: output.id, country: 'FR' });
  await expect(verdict).toHaveText('Refused: The token has been revoked (token_revoked)');

  await row.getByRole('button', { name: 'Revoke shop backend' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke playback signing key' });
  await expect(confirm).toContainText('shop backend');
  await confirm.getByRole('button', { name: 'Ok', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The playback signing key was revoked.' })).toBeVisible();
  await expect(row.getByRole('cell').nth(4)).toHaveText(/^Revoked /);
  await testToken(page, { token: signed, outputId: output.id, country: 'FR' });
  await expect(verdict).toHaveText("Refused: The token's signing key has been revoked (key_revoked)");
});
