import { expect, type Page, test } from '@playwright/test';
import { storageRoutes } from '@streamcloud/contract';
import { type LocalS3Server, startLocalS3 } from '@streamcloud/s3/testing';
import { apiLogin, createAccount, loginViaUi, type TestAccount, uniqueName } from '../support/accounts';
import { api } from '../support/api';

/** A real S3-compatible server on 127.0.0.1, which the API server (on the same machine) checks against. */
let s3: LocalS3Server;
test.beforeAll(async () => {
  s3 = await startLocalS3(['e2e-media']);
});
test.afterAll(async () => {
  await s3.close();
});

/** Every answer of the storages API the page received, as text. */
function recordStorageAnswers(page: Page): string[] {
  const bodies: string[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/api/v1/storages')) {
      void response
        .text()
        .then((text) => bodies.push(text))
        .catch(() => undefined);
    }
  });
  return bodies;
}

async function openStorages(page: Page) {
  await page.getByRole('navigation').getByRole('link', { name: 'Storages', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Storages' })).toBeVisible();
}

const checkResult = (page: Page, outcome: 'OK' | 'failed') =>
  page.getByRole('region', { name: `Connection check: ${outcome}` });

test.describe('storages', () => {
  let customer: TestAccount;
  test.beforeEach(async ({ request }) => {
    customer = await createAccount(request, 'USER');
  });

  test('a customer creates, edits, checks and removes its own storage', async ({ page }) => {
    // Eight saves and checks against a real S3 server: more than the default time on a busy machine.
    test.slow();
    const answers = recordStorageAnswers(page);
    const name = uniqueName('bucket');
    await loginViaUi(page, customer);
    await openStorages(page);
    await page.getByRole('link', { name: 'Add storage' }).click();
    await expect(page).toHaveURL(/#\/storages\/create$/);

    // The section 5 rules, from the contract, before anything is sent.
    const form = page.getByRole('form', { name: 'Storage' });
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('Name is required')).toBeVisible();
    await expect(form.getByText('Type is required')).toBeVisible();
    await expect(form.getByText('Bucket is required')).toBeVisible();
    await expect(form.getByText('Secret access key is required')).toBeVisible();
    await expect(form.getByLabel('Endpoint')).toHaveCount(0);
    await form.getByLabel('Type').selectOption({ label: 'S3-compatible' });
    await form.getByLabel('Endpoint').fill('not a url');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('Endpoint must be a valid http or https URL')).toBeVisible();

    await form.getByLabel('Name', { exact: true }).fill(name);
    await form.getByLabel('Endpoint').fill(s3.endpoint);
    await form.getByLabel('Bucket').fill('e2e-media');
    await form.getByLabel('Path').fill('recordings');
    await form.getByLabel('Access key ID').fill(s3.credentials.accessKeyId);
    await form.getByLabel('Secret access key').fill(s3.credentials.secretAccessKey);
    await form.getByRole('button', { name: 'Save' }).click();

    // Saved, opened for editing, with the result of the real check run on saving.
    await expect(page).toHaveURL(/#\/storages\/edit\/[\w-]+$/);
    await expect(page.getByRole('alert').filter({ hasText: 'Storage saved' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    const passed = checkResult(page, 'OK');
    await expect(passed).toBeVisible();
    await expect(passed.getByRole('listitem')).toHaveText([
      /OK\s*Bucket reachable: Bucket "e2e-media" is reachable/,
      /OK\s*Write permitted: Wrote the test object "recordings\/\.streamcloud-check-/,
      /OK\s*Test object removed: Deleted the test object/,
    ]);

    // The secret is never shown again: the field is blank and says one is set.
    await expect(form.getByLabel('Secret access key')).toHaveValue('');
    await expect(form.getByText(/A secret access key is set/)).toBeVisible();

    // A wrong secret is saved all the same, with the failed check as a warning.
    await form.getByLabel('Secret access key').fill('not-the-secret');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(
      page
        .getByRole('alert')
        .filter({ hasText: 'Saved, but the connection check failed: The secret access key is wrong' }),
    ).toBeVisible();
    const failed = checkResult(page, 'failed');
    await expect(failed.getByRole('listitem').first()).toHaveText(
      /Failed\s*Bucket reachable: The secret access key is wrong/,
    );

    // Back to the right secret, renamed; leaving the secret blank keeps it.
    await form.getByLabel('Secret access key').fill(s3.credentials.secretAccessKey);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(checkResult(page, 'OK')).toBeVisible();
    const renamed = `${name}-renamed`;
    await form.getByLabel('Name', { exact: true }).fill(renamed);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
    await page.getByRole('button', { name: 'Check connection' }).click();
    await expect(checkResult(page, 'OK')).toBeVisible();

    // The list links to the edit form.
    await page.getByRole('link', { name: 'Back to storages' }).click();
    const link = page.getByRole('link', { name: renamed, exact: true });
    await expect(link).toHaveAttribute('href', /#\/storages\/edit\/[\w-]+$/);
    await link.click();

    // Removal asks first; Cancel keeps it, Ok removes it.
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Ok' }).click();
    await expect(page).toHaveURL(/#\/storages$/);
    await expect(page.getByRole('link', { name: renamed, exact: true })).toHaveCount(0);

    expect(answers.length).toBeGreaterThan(0);
    for (const body of answers) expect(body).not.toContain(s3.credentials.secretAccessKey);
  });

  test("a failed removal alerts 'Something wrong'", async ({ page, request }) => {
    const token = await apiLogin(request, { username: customer.username, password: customer.password });
    const { id, name } = await api(request, token).call(storageRoutes.create, {
      query: { check: 'false' },
      body: {
        name: uniqueName('doomed'),
        type: 'AmazonS3',
        accessKeyId: 'AKIDEXAMPLE',
        secretAccessKey: 'example-secret',
        regionName: 'eu-west-1',
        bucket: 'somewhere',
      },
    });

    await loginViaUi(page, customer);
    await page.goto(`/#/storages/edit/${id}`);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByLabel('Endpoint')).toHaveCount(0);
    await expect(page.getByLabel('Region name')).toHaveValue('eu-west-1');

    // Removed elsewhere meanwhile: this removal fails.
    await api(request, token).call(storageRoutes.delete, { params: { id } });
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Ok' }).click();
    await expect(page.getByRole('alert')).toHaveText('Something wrong');
    await expect(page).toHaveURL(new RegExp(`#/storages/edit/${id}$`));
  });

  test('another customer cannot see the storage', async ({ page, request }) => {
    const token = await apiLogin(request, { username: customer.username, password: customer.password });
    const { id, name } = await api(request, token).call(storageRoutes.create, {
      query: { check: 'false' },
      body: {
        name: uniqueName('private'),
        type: 'AmazonS3Compatible',
        endpoint: s3.endpoint,
        accessKeyId: s3.credentials.accessKeyId,
        secretAccessKey: s3.credentials.secretAccessKey,
        bucket: 'e2e-media',
      },
    });
    const other = await createAccount(request, 'USER');
    await loginViaUi(page, other);
    await openStorages(page);
    await expect(page.getByRole('link', { name, exact: true })).toHaveCount(0);
    await page.goto(`/#/storages/edit/${id}`);
    await expect(page.getByText('This storage does not exist.')).toBeVisible();
  });
});
