import { errorResponse, jsonResponse } from '@streamcloud/api-client/testing';
import type { PlaybackKey, PlaybackTokenInspection } from '@streamcloud/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderAsUser } from '@/test/render-app';
import { PLAYBACK_KEY_TEXTS } from '../utils/messages';

const KEY: PlaybackKey = {
  id: '00000000-0000-4000-8000-0000000b0001',
  kid: '00000000-0000-4000-8000-0000000b0001',
  accountId: '00000000-0000-4000-8000-000000000002',
  name: 'shop',
  algorithm: 'HS256',
  publicJwk: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  revokedAt: null,
};
const SECRET = 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA';
const OUTPUT_ID = '00000000-0000-4000-8000-0000000c0001';

describe('Playback signing keys', () => {
  it('creates an HS256 key and shows its secret once, then not in the list', async () => {
    let sent: unknown;
    let keys: PlaybackKey[] = [];
    const { user } = renderAsUser('/account/playback-keys', {
      'GET /api/v1/playback-keys': () => jsonResponse(keys),
      'POST /api/v1/playback-keys': (request) => {
        sent = request.body;
        keys = [KEY];
        return jsonResponse({ ...KEY, privateKeyPem: null, privateJwk: null, secret: SECRET }, 201);
      },
    });
    expect(await screen.findByText(PLAYBACK_KEY_TEXTS.none)).not.toBeNull();
    await user.click(screen.getByRole('button', { name: 'Create signing key' }));
    const form = screen.getByRole('form', { name: 'Create playback signing key' });
    await user.type(within(form).getByLabelText('Name'), 'shop');
    await user.selectOptions(within(form).getByLabelText('Algorithm'), 'HS256');
    await user.click(within(form).getByRole('button', { name: 'Create' }));
    const dialog = await screen.findByRole('dialog', { name: 'New playback signing key' });
    expect(sent).toEqual({ name: 'shop', algorithm: 'HS256' });
    expect(within(dialog).getByRole('textbox', { name: 'Secret (base64url)' })).toHaveProperty('value', SECRET);
    expect(within(dialog).getByRole('textbox', { name: 'Key id (kid)' })).toHaveProperty('value', KEY.kid);
    expect(within(dialog).getByRole('button', { name: 'Download Secret (base64url)' })).not.toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    const table = await screen.findByRole('table', { name: 'Playback signing keys' });
    expect(table.textContent).toContain('shop');
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it("shows a refused token's reason as an alert, and a field's rule under it", async () => {
    const refused: PlaybackTokenInspection = {
      header: { alg: 'HS256', kid: KEY.kid },
      claims: { sub: OUTPUT_ID, exp: 1 },
      accepted: false,
      reason: 'expired',
      message: 'The token expired',
      detail: null,
      sessionEndsAt: null,
      output: { id: OUTPUT_ID, streamId: OUTPUT_ID, access: 'Signed' as const },
    };
    let sent: unknown;
    const { user } = renderAsUser('/account/playback-keys', {
      'GET /api/v1/playback-keys': () => jsonResponse([KEY]),
      'POST /api/v1/playback-tokens/inspect': (request) => {
        sent = request.body;
        return jsonResponse(refused);
      },
    });
    const form = await screen.findByRole('form', { name: 'Test a token' });
    await user.type(within(form).getByLabelText('Token'), 'a.b.c');
    await user.type(within(form).getByLabelText('Output ID'), OUTPUT_ID);
    await user.type(within(form).getByLabelText('Viewer country'), 'FRA');
    await user.click(within(form).getByRole('button', { name: 'Test token' }));
    expect(await within(form).findByText('Country must be a two-letter ISO code such as FR')).not.toBeNull();
    expect(sent).toBeUndefined();
    await user.clear(within(form).getByLabelText('Viewer country'));
    await user.click(within(form).getByRole('button', { name: 'Test token' }));
    expect((await screen.findByText(/^Refused/)).closest('[role="alert"]')?.textContent).toBe(
      'Refused: The token expired (expired)',
    );
    expect(sent).toEqual({ token: 'a.b.c', outputId: OUTPUT_ID });
    expect(screen.getByTestId('inspected-output-access').textContent).toBe('Output access: Signed');
    expect(screen.getByRole('region', { name: 'Claims' }).textContent).toContain(OUTPUT_ID);
  });

  it('says why a revocation failed', async () => {
    const { user } = renderAsUser('/account/playback-keys', {
      'GET /api/v1/playback-keys': () => jsonResponse([KEY]),
      [`DELETE /api/v1/playback-keys/${KEY.id}`]: () => errorResponse(409, 'The playback key is already revoked'),
    });
    await user.click(await screen.findByRole('button', { name: 'Revoke shop' }));
    const confirm = screen.getByRole('dialog', { name: 'Revoke playback signing key' });
    await user.click(within(confirm).getByRole('button', { name: 'Ok' }));
    expect((await screen.findByText('The playback key is already revoked')).closest('[role="alert"]')).not.toBeNull();
  });

  it('revokes a token by its jti, and says when it already is', async () => {
    const sent: unknown[] = [];
    const { user } = renderAsUser('/account/playback-keys', {
      'GET /api/v1/playback-keys': () => jsonResponse([KEY]),
      'POST /api/v1/playback-tokens/revocations': (request) => {
        sent.push(request.body);
        return sent.length === 1
          ? jsonResponse({ jti: 'ticket-7', accountId: KEY.accountId, revokedAt: '2026-01-01T00:00:00.000Z' }, 201)
          : errorResponse(409, 'The token is already revoked');
      },
    });
    const form = await screen.findByRole('form', { name: 'Revoke a token' });
    await user.click(within(form).getByRole('button', { name: 'Revoke token' }));
    expect(await within(form).findByText('Token id (jti) is required')).not.toBeNull();
    for (const _ of [1, 2]) {
      await user.type(within(form).getByLabelText('Token id (jti)'), 'ticket-7');
      await user.click(within(form).getByRole('button', { name: 'Revoke token' }));
    }
    expect((await screen.findByText('The token is already revoked')).closest('[role="alert"]')).not.toBeNull();
    expect(screen.getByText(PLAYBACK_KEY_TEXTS.tokenRevoked('ticket-7')).closest('[role="alert"]')).not.toBeNull();
    expect(sent).toEqual([{ jti: 'ticket-7' }, { jti: 'ticket-7' }]);
  });
});
