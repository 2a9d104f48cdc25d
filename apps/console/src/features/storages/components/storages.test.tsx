import { emptyResponse, errorResponse, type Handler, jsonResponse } from '@streamcloud/api-client/testing';
import type { Storage, StorageCheckResult } from '@streamcloud/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminAccount, userAccount, whoAmI } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

const STORAGE: Storage = {
  id: '00000000-0000-4000-8000-00000000a001',
  name: 'Recordings',
  type: 'AmazonS3Compatible',
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKeySet: true,
  regionName: null,
  bucket: 'media',
  path: 'live',
  endpoint: 'http://127.0.0.1:9000',
  ownerId: userAccount.id,
  ownerUsername: 'alice',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};
const STORAGE_URL = `/api/v1/storages/${STORAGE.id}`;

const PASSED: StorageCheckResult = {
  ok: true,
  checks: [
    { name: 'bucket', ok: true, message: 'Bucket "media" is reachable at 127.0.0.1:9000' },
    { name: 'write', ok: true, message: 'Wrote the test object "live/.streamcloud-check-1"' },
    { name: 'cleanup', ok: true, message: 'Deleted the test object "live/.streamcloud-check-1"' },
  ],
};
const FAILED: StorageCheckResult = {
  ok: false,
  checks: [
    { name: 'bucket', ok: false, message: 'Connection refused by 127.0.0.1:9000' },
    { name: 'write', ok: false, message: 'Not tried: the bucket is not reachable' },
    { name: 'cleanup', ok: false, message: 'Not tried: nothing was written' },
  ],
};

function renderStorages(path: string, handlers: Record<string, Handler> = {}, account = userAccount) {
  return renderApp({
    path,
    currentToken: 'token',
    handlers: {
      'GET /api/v1/accounts/whoami': () => jsonResponse(whoAmI(account)),
      [`GET ${STORAGE_URL}`]: () => jsonResponse(STORAGE),
      'GET /api/v1/clips/storage-use': () => jsonResponse([]),
      ...handlers,
    },
  });
}

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const alerts = () => screen.queryAllByRole('alert').map((alert) => alert.textContent);

describe('/storages', () => {
  it('lists the storages of a USER, rows linking to their form, with a create button', async () => {
    renderStorages('/storages', {
      'GET /api/v1/storages': () =>
        jsonResponse([
          STORAGE,
          {
            ...STORAGE,
            id: '00000000-0000-4000-8000-00000000a002',
            name: 'Archive',
            type: 'AmazonS3',
            endpoint: null,
            regionName: 'eu-west-1',
          },
        ]),
      'GET /api/v1/clips/storage-use': () => jsonResponse([{ storageId: STORAGE.id, clips: 2, bytes: 1_500_000 }]),
    });
    const link = await screen.findByRole('link', { name: 'Recordings' });
    expect(link.getAttribute('href')).toBe(`/storages/edit/${STORAGE.id}`);
    expect(screen.getByRole('link', { name: 'Add storage' }).getAttribute('href')).toBe('/storages/create');
    const archive = within(screen.getByRole('link', { name: 'Archive' }).closest('tr') as HTMLElement);
    archive.getByText('Amazon S3');
    archive.getByText('eu-west-1');
    screen.getByText('S3-compatible');
    // What clips take in each: the Clips column.
    await screen.findByText('2 clips, 1.5 MB');
    archive.getByText('–');
    expect(screen.getByRole('columnheader', { name: 'Clips' })).toBeTruthy();
  });

  it('says so when there is no storage', async () => {
    renderStorages('/storages', { 'GET /api/v1/storages': () => jsonResponse([]) });
    await screen.findByText('No storages yet.');
  });
});

// Typing through user-event is slow on a busy machine: these forms get more than the default 5 s.
describe('/storages/create', () => {
  it('shows the section 5 messages from the contract and sends nothing while invalid', async () => {
    const { user, mock } = renderStorages('/storages/create');
    await screen.findByRole('heading', { level: 1, name: 'New storage' });
    expect(screen.queryByLabelText('Endpoint')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Name is required');
    for (const message of [
      'Type is required',
      'Access key ID is required',
      'Secret access key is required',
      'Bucket is required',
    ]) {
      screen.getByText(message);
    }
    await user.click(input('Name'));
    await user.paste('x'.repeat(256));
    await user.selectOptions(input('Type'), 'S3-compatible');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Endpoint is required for S3-compatible storage');
    screen.getByText('Name must be at most 255 characters');
    await user.type(input('Endpoint'), 'minio.local:9000');
    await screen.findByText('Endpoint must be a valid http or https URL');
    expect(mock.requests.some((request) => request.method === 'POST')).toBe(false);
  });

  it('saves, then opens the storage with the result of the check run on saving', async () => {
    const { user, mock, location } = renderStorages('/storages/create', {
      'POST /api/v1/storages': () => jsonResponse({ ...STORAGE, check: PASSED, warning: null }, 201),
    });
    await user.type(await screen.findByLabelText('Name'), 'Recordings');
    await user.selectOptions(input('Type'), 'S3-compatible');
    await user.type(input('Endpoint'), 'http://127.0.0.1:9000');
    await user.type(input('Bucket'), 'media');
    await user.type(input('Path'), 'live');
    await user.type(input('Access key ID'), 'AKIDEXAMPLE');
    await user.type(input('Secret access key'), 'the-secret');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(location()).toBe(`/storages/edit/${STORAGE.id}`));
    expect(mock.requests.find((request) => request.method === 'POST')?.body).toEqual({
      name: 'Recordings',
      type: 'AmazonS3Compatible',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'the-secret',
      regionName: '',
      bucket: 'media',
      path: 'live',
      endpoint: 'http://127.0.0.1:9000',
    });
    await screen.findByRole('heading', { name: 'Connection check: OK' });
    expect(alerts()).toContain('Storage saved');
  });

  it('does not send the endpoint of an Amazon S3 storage, and tells a failed check as a warning', async () => {
    const { user, mock } = renderStorages('/storages/create', {
      'POST /api/v1/storages': () =>
        jsonResponse({ ...STORAGE, check: FAILED, warning: 'Saved, but the connection check failed: refused' }, 201),
    });
    await user.type(await screen.findByLabelText('Name'), 'S3');
    await user.selectOptions(input('Type'), 'S3-compatible');
    await user.type(input('Endpoint'), 'http://left.over');
    await user.selectOptions(input('Type'), 'Amazon S3');
    expect(screen.queryByLabelText('Endpoint')).toBeNull();
    await user.type(input('Region name'), 'eu-west-1');
    await user.type(input('Bucket'), 'b');
    await user.type(input('Access key ID'), 'k');
    await user.type(input('Secret access key'), 's');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(alerts()).toContain('Saved, but the connection check failed: refused'));
    expect(mock.requests.find((request) => request.method === 'POST')?.body).toMatchObject({
      type: 'AmazonS3',
      regionName: 'eu-west-1',
      endpoint: '',
    });
  });

  it("puts the server's field messages under the inputs", async () => {
    const { user } = renderStorages('/storages/create', {
      'POST /api/v1/storages': () =>
        errorResponse(400, 'Invalid request', {
          code: 'VALIDATION',
          errors: [{ path: 'body.bucket', message: 'Bucket is taken' }],
        }),
    });
    await user.type(await screen.findByLabelText('Name'), 'n');
    await user.selectOptions(input('Type'), 'Amazon S3');
    await user.type(input('Bucket'), 'b');
    await user.type(input('Access key ID'), 'k');
    await user.type(input('Secret access key'), 's');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Bucket is taken');
  });
});

describe('/storages/edit/{id}', () => {
  it('shows the fields, says the secret is set, and keeps it when left blank', async () => {
    const { user, mock } = renderStorages(`/storages/edit/${STORAGE.id}`, {
      [`PUT ${STORAGE_URL}`]: ({ body }) =>
        jsonResponse({ ...STORAGE, ...(body as object), check: PASSED, warning: null }),
    });
    await screen.findByRole('heading', { level: 1, name: 'Recordings' });
    expect(input('Endpoint').value).toBe('http://127.0.0.1:9000');
    expect(input('Bucket').value).toBe('media');
    expect(input('Secret access key').value).toBe('');
    const secretHelp = screen.getByText(/A secret access key is set\. Leave this blank to keep it/);
    expect(input('Secret access key').getAttribute('aria-describedby')).toBe(secretHelp.id);
    await user.clear(input('Name'));
    await user.type(input('Name'), 'Renamed');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(alerts()).toContain('Storage saved'));
    expect(mock.requests.find((request) => request.method === 'PUT')?.body).toMatchObject({
      name: 'Renamed',
      secretAccessKey: '',
    });
    await screen.findByRole('heading', { level: 1, name: 'Renamed' });
  });

  it('checks the connection and shows each check plainly', async () => {
    const { user } = renderStorages(`/storages/edit/${STORAGE.id}`, {
      [`POST ${STORAGE_URL}/check`]: () => jsonResponse(FAILED),
    });
    await user.click(await screen.findByRole('button', { name: 'Check connection' }));
    const result = await screen.findByRole('region', { name: 'Connection check: failed' });
    expect(
      within(result)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'FailedBucket reachable: Connection refused by 127.0.0.1:9000',
      'FailedWrite permitted: Not tried: the bucket is not reachable',
      'FailedTest object removed: Not tried: nothing was written',
    ]);
  });

  it('removes after the confirmation and goes back to the list', async () => {
    const { user, location, mock } = renderStorages(`/storages/edit/${STORAGE.id}`, {
      [`DELETE ${STORAGE_URL}`]: () => emptyResponse(),
      'GET /api/v1/storages': () => jsonResponse([]),
    });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    within(dialog).getByText(/Delete storage Recordings\?/);
    await user.click(within(dialog).getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(location()).toBe('/storages'));
    expect(mock.requests.some((request) => request.method === 'DELETE')).toBe(true);
  });

  it("alerts 'Something wrong' when removal fails, and tells the server's reason beside it", async () => {
    const { user, location } = renderStorages(`/storages/edit/${STORAGE.id}`, {
      [`DELETE ${STORAGE_URL}`]: () =>
        errorResponse(409, 'The storage is used by 2 recordings and cannot be deleted', { code: 'STORAGE_IN_USE' }),
    });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(alerts()).toEqual(['Something wrong']));
    screen.getByText('The storage is used by 2 recordings and cannot be deleted');
    expect(location()).toBe(`/storages/edit/${STORAGE.id}`);
  });

  it('cancelling the confirmation removes nothing', async () => {
    const { user, mock } = renderStorages(`/storages/edit/${STORAGE.id}`);
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(mock.requests.some((request) => request.method === 'DELETE')).toBe(false);
  });

  it('says so when the storage does not exist', async () => {
    renderStorages(`/storages/edit/${STORAGE.id}`, {
      [`GET ${STORAGE_URL}`]: () => errorResponse(404, 'Storage not found'),
    });
    await screen.findByText('This storage does not exist.');
  });

  it('an ADMIN sees the owner of a customer’s storage', async () => {
    renderStorages(`/storages/edit/${STORAGE.id}`, {}, adminAccount);
    await screen.findByText('Owner: alice');
  });
});
