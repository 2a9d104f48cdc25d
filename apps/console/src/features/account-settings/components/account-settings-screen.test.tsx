import { emptyResponse, errorResponse, jsonResponse } from '@streamcloud/api-client/testing';
import type { ApiKey } from '@streamcloud/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { userAccount } from '@/test/fixtures';
import { renderAsUser } from '@/test/render-app';
import { API_KEY_TEXTS } from './api-keys-card';

const KEY: ApiKey = {
  id: '00000000-0000-4000-8000-0000000a0001',
  name: 'deploy',
  scope: 'write',
  prefix: 'sck_AbCdEf',
  createdAt: '2026-01-01T00:00:00.000Z',
  expiresAt: null,
  lastUsedAt: '2026-01-02T00:00:00.000Z',
  lastUsedAddress: '203.0.113.7',
};
const SECRET = `sck_${'A'.repeat(43)}`;

/** The two-factor card beside the keys reads its status. */
const TWO_FACTOR_OFF = {
  [`GET /api/v1/accounts/${userAccount.id}/two-factor`]: () =>
    jsonResponse({ enabled: false, enabledAt: null, recoveryCodesLeft: 0 }),
};

const alerts = () => screen.queryAllByRole('alert').map((alert) => alert.textContent);

describe('Account settings: API keys', () => {
  it('lists the keys with prefix, scope, expiry and last use', async () => {
    renderAsUser('/account/settings', {
      ...TWO_FACTOR_OFF,
      'GET /api/v1/api-keys': () => jsonResponse([KEY]),
    });
    const row = within(await screen.findByRole('table', { name: 'API keys' })).getAllByRole('row')[1] as HTMLElement;
    const cells = within(row).getAllByRole('cell');
    expect(cells.map((cell) => cell.textContent)).toEqual([
      'deploy',
      'sck_AbCdEf…',
      'write',
      expect.stringMatching(/2026/),
      'Never',
      expect.stringMatching(/ from 203\.0\.113\.7$/),
      'Revoke',
    ]);
  });

  it('creates a key with its name, scope and expiry, shows it once, and copies it', async () => {
    let sent: Record<string, unknown> | undefined;
    let keys: ApiKey[] = [];
    const { user } = renderAsUser('/account/settings', {
      ...TWO_FACTOR_OFF,
      'GET /api/v1/api-keys': () => jsonResponse(keys),
      'POST /api/v1/api-keys': (request) => {
        sent = request.body as Record<string, unknown>;
        keys = [KEY];
        return jsonResponse({ ...KEY, key: SECRET }, 201);
      },
    });
    expect(await screen.findByText(API_KEY_TEXTS.none)).not.toBeNull();
    await user.click(screen.getByRole('button', { name: 'Create API key' }));
    const form = screen.getByRole('form', { name: 'Create API key' });
    await user.click(within(form).getByRole('button', { name: 'Create' }));
    expect(await within(form).findByText('Name is required')).not.toBeNull();
    expect(sent).toBeUndefined();
    await user.type(within(form).getByLabelText('Name'), 'deploy');
    await user.selectOptions(within(form).getByLabelText('Scope'), 'write');
    await user.selectOptions(within(form).getByLabelText('Expires'), '30 days');
    await user.click(within(form).getByRole('button', { name: 'Create' }));
    const dialog = await screen.findByRole('dialog', { name: 'New API key' });
    expect((within(dialog).getByLabelText('API key') as HTMLInputElement).value).toBe(SECRET);
    expect(sent).toMatchObject({ name: 'deploy', scope: 'write' });
    const days = (Date.parse(sent?.expiresAt as string) - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(30);
    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('table', { name: 'API keys' })).not.toBeNull();
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
  });

  it('revokes a key after confirming, and says so in an alert', async () => {
    let revoked = 0;
    const { user } = renderAsUser('/account/settings', {
      ...TWO_FACTOR_OFF,
      'GET /api/v1/api-keys': () => jsonResponse(revoked > 0 ? [] : [KEY]),
      [`DELETE /api/v1/api-keys/${KEY.id}`]: () => {
        revoked++;
        return emptyResponse();
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Revoke deploy' }));
    const confirm = screen.getByRole('dialog', { name: 'Revoke API key' });
    expect(confirm.textContent).toContain(API_KEY_TEXTS.revokeQuestion('deploy'));
    await user.click(within(confirm).getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(alerts()).toContain(API_KEY_TEXTS.revoked));
    expect(revoked).toBe(1);
    expect(await screen.findByText(API_KEY_TEXTS.none)).not.toBeNull();
  });

  it('says when the keys cannot be loaded', async () => {
    renderAsUser('/account/settings', {
      ...TWO_FACTOR_OFF,
      'GET /api/v1/api-keys': () => errorResponse(500),
    });
    expect(await screen.findByText(API_KEY_TEXTS.loadingFailed)).not.toBeNull();
  });
});
