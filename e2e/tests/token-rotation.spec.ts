import { expect, test } from '@playwright/test';
import { apiLogin, createAccount, loginViaUi } from '../support/accounts';
import { apiCreateInput, apiCreateOutput, apiGetInput } from '../support/streams';

// Token rotation (issue 34) from the stream dashboard: the ingest token and a viewer's playback token, two
// dialogs in one test (a minute, as the streams spec: under load the dashboard alone takes seconds).
test.describe.configure({ timeout: 60_000 });
test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test("the owner rotates a Private stream's ingest token and a viewer's playback token from the dashboard", async ({
  page,
  request,
}) => {
  const account = await createAccount(request);
  const token = await apiLogin(request, { username: account.username, password: account.password });
  const stream = await apiCreateInput(request, token, { format: 'RTMP', access: 'Private', caption: 'Rotation' });
  await apiCreateOutput(request, token, stream.id, 'HLS');
  await loginViaUi(page, account);
  await page.goto(`/#/streams/view/${stream.id}`);

  // The ingest token: rotated with a 5-minute overlap, the new one shown once with Copy.
  const input = page.getByRole('region', { name: 'Input' });
  await expect(input.getByText('Never rotated')).toBeVisible();
  await input.getByRole('button', { name: 'Rotate token' }).click();
  const form = page.getByRole('form', { name: 'Rotate access token' });
  await form.getByLabel('Overlap (minutes)').fill('5');
  await form.getByRole('button', { name: 'Rotate' }).click();
  const dialog = page.getByRole('dialog', { name: 'New access token' });
  const rotated = await dialog.getByLabel('New access token').inputValue();
  expect(rotated).toMatch(/^[\w-]{32}$/);
  expect(rotated).not.toBe(stream.accessToken);
  await expect(dialog).toContainText('The old token is still taken until');
  await dialog.getByRole('button', { name: 'Copy' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(rotated);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  await expect(input.getByText(/^Last rotated \d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d$/)).toBeVisible();
  await expect(input.getByText(rotated)).toBeVisible();
  expect((await apiGetInput(request, token, stream.id)).accessToken).toBe(rotated);

  // A viewer's playback token: rotated with no overlap (the old one stops at once).
  const viewer = page.getByRole('region', { name: 'Viewers' }).getByRole('listitem');
  await expect(viewer.getByText('Never rotated')).toBeVisible();
  await viewer.getByRole('button', { name: 'Rotate token' }).click();
  const viewerForm = page.getByRole('form', { name: 'Rotate playback token' });
  await viewerForm.getByLabel('Overlap (minutes)').fill('0');
  await viewerForm.getByRole('button', { name: 'Rotate' }).click();
  const viewerDialog = page.getByRole('dialog', { name: 'New playback token' });
  const playback = await viewerDialog.getByLabel('New playback token').inputValue();
  await expect(viewerDialog).toContainText('The old token stopped working now.');
  await viewerDialog.getByRole('button', { name: 'Done' }).click();
  await expect(viewer.getByText(/^Last rotated /)).toBeVisible();
  await expect(viewer.getByLabel('Playback token')).toHaveValue(playback);
});
