import { errorResponse, type Handler, jsonResponse } from '@streamcloud/api-client/testing';
import type { WebhookSecret } from '@streamcloud/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminAccount, deliveriesResponse, userAccount, webhookDelivery, whoAmI } from '@/test/fixtures';
import { renderApp, renderAsUser } from '@/test/render-app';
import { SECRET_TEXTS } from './signing-secret-card';
import { TEST_EVENT_TEXTS } from './test-event-form';

const SECRET: WebhookSecret = {
  accountId: userAccount.id,
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  createdAt: '2025-01-01T00:00:00.000Z',
  previousExpiresAt: null,
};
const FAILED = webhookDelivery({
  id: '00000000-0000-4000-8000-0000000d0002',
  type: 'recording.error',
  resourceType: 'recording',
  resourceId: '00000000-0000-4000-8000-00000000e001',
  status: 'Pending',
  attempts: 2,
  lastStatusCode: 500,
  lastError: 'HTTP 500: down for maintenance',
  nextAttemptAt: '2025-01-01T10:12:00.000Z',
});

const alerts = () => screen.queryAllByRole('alert').map((alert) => alert.textContent);

function renderScreen(handlers: Record<string, Handler> = {}) {
  return renderAsUser('/webhooks', {
    'GET /api/v1/webhooks/secret': () => jsonResponse(SECRET),
    'GET /api/v1/webhooks/deliveries': deliveriesResponse(FAILED, webhookDelivery()),
    ...handlers,
  });
}

describe('Webhooks screen', () => {
  it('shows the signing secret hidden until asked, and copies it', async () => {
    const { user } = renderScreen();
    const input = (await screen.findByLabelText('Signing secret')) as HTMLInputElement;
    expect(input.type).toBe('password');
    expect(input.value).toBe(SECRET.secret);
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect(input.type).toBe('text');
    await user.click(screen.getByRole('button', { name: 'Hide' }));
    expect(input.type).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET.secret);
    await waitFor(() => expect(alerts()).toContain(SECRET_TEXTS.copied));
  });

  it('rotates the secret after confirming and says until when the old one signs', async () => {
    let rotated = false;
    const { user } = renderScreen({
      'POST /api/v1/webhooks/secret/rotate': () => {
        rotated = true;
        return jsonResponse({
          ...SECRET,
          secret: 'whsec_bmV3LXNlY3JldC1vZi0zMi1ieXRlcy1sb25nISE=',
          previousExpiresAt: '2025-01-02T00:00:00.000Z',
        });
      },
    });
    await screen.findByLabelText('Signing secret');
    await user.click(screen.getByRole('button', { name: 'Rotate secret' }));
    const dialog = within(await screen.findByRole('dialog'));
    dialog.getByText(SECRET_TEXTS.rotateQuestion);
    await user.click(dialog.getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(rotated).toBe(true));
    await waitFor(() =>
      expect((screen.getByLabelText('Signing secret') as HTMLInputElement).value).toBe(
        'whsec_bmV3LXNlY3JldC1vZi0zMi1ieXRlcy1sb25nISE=',
      ),
    );
    screen.getByText(/The previous secret also signs until/);
    await waitFor(() => expect(alerts()).toContain(SECRET_TEXTS.rotated));
  });

  it('sends a test event to a URL, refusing one that is not http(s)', async () => {
    const sent: unknown[] = [];
    const { user } = renderScreen({
      'POST /api/v1/webhooks/test': ({ body }) => {
        sent.push(body);
        return jsonResponse(webhookDelivery({ type: 'webhook.test', status: 'Pending', attempts: 0 }), 202);
      },
    });
    const form = within(await screen.findByRole('form', { name: 'Send a test event' }));
    await user.type(form.getByLabelText('URL'), 'ftp://example.com/hook');
    await user.click(form.getByRole('button', { name: 'Send test event' }));
    await form.findByText('URL must be an http(s) URL');
    expect(sent).toEqual([]);
    await user.clear(form.getByLabelText('URL'));
    await user.type(form.getByLabelText('URL'), 'https://hooks.example.com/try');
    await user.click(form.getByRole('button', { name: 'Send test event' }));
    await waitFor(() => expect(sent).toEqual([{ url: 'https://hooks.example.com/try' }]));
    await waitFor(() => expect(alerts()).toContain(TEST_EVENT_TEXTS.sent));
  });

  it("lists the account's callbacks with their last answer, and redelivers one", async () => {
    const redelivered: string[] = [];
    const { user } = renderScreen({
      'POST /api/v1/webhooks/deliveries/*': ({ url }) => {
        redelivered.push(url.pathname);
        return jsonResponse({ ...FAILED, nextAttemptAt: FAILED.occurredAt });
      },
    });
    const log = within(await screen.findByRole('table'));
    const rows = await log.findAllByRole('row');
    expect(rows).toHaveLength(3);
    const failed = within(rows[1] as HTMLElement);
    failed.getByText('recording.error');
    failed.getByText('Pending');
    failed.getByText('HTTP 500');
    failed.getByText('HTTP 500: down for maintenance');
    failed.getByText(FAILED.url);
    within(rows[2] as HTMLElement).getByText('Delivered');
    await user.click(failed.getByRole('button', { name: 'Redeliver' }));
    await waitFor(() => expect(redelivered).toEqual([`/api/v1/webhooks/deliveries/${FAILED.id}/redeliver`]));
    await waitFor(() => expect(alerts()).toContain('The callback is being sent again.'));
  });

  it('says so when the secret cannot be loaded, and when there is nothing in the log', async () => {
    renderScreen({
      'GET /api/v1/webhooks/secret': () => errorResponse(500, 'Internal Server Error'),
      'GET /api/v1/webhooks/deliveries': deliveriesResponse(),
    });
    await screen.findByText(SECRET_TEXTS.loadingFailed);
    await screen.findByText('No callbacks sent yet.');
  });

  it("lets an ADMIN open the platform's webhooks", async () => {
    const { mock } = renderApp({
      path: '/webhooks/account/platform',
      currentToken: 'admin-token',
      handlers: {
        'GET /api/v1/accounts/whoami': () => jsonResponse(whoAmI(adminAccount)),
        'GET /api/v1/webhooks/secret': () => jsonResponse({ ...SECRET, accountId: null }),
        'GET /api/v1/webhooks/deliveries': deliveriesResponse(),
      },
    });
    await screen.findByRole('heading', { name: 'Webhooks of the platform' });
    await screen.findByLabelText('Signing secret');
    const asked = mock.requests.filter((request) => request.url.pathname.startsWith('/api/v1/webhooks/'));
    expect(asked.map((request) => request.url.searchParams.get('account'))).toEqual(['platform', 'platform']);
  });
});
