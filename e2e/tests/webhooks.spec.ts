import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { startWebhookReceiver, type WebhookReceiver } from '../../apps/api/test/webhook-receiver';
import { createAccount, loginViaUi } from '../support/accounts';
import { createStreamInConsole, pushTestPattern, useLocalMediaNode } from '../support/media';

// A real media node on loopback, ffmpeg's test pattern and a webhook receiver on 127.0.0.1: the callbacks
// are what the control plane sends for a real push.
test.describe.configure({ timeout: 180_000 });

/** What the spec reads of a stream event's body. */
interface StreamEvent {
  type: string;
  data: { push: { protocol: string; address?: string | null; bytes?: number } };
}

const node = useLocalMediaNode();
let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
test.afterAll(async () => {
  await receiver.close();
});

test('a callback set in the stream modal hears the push start and end, signed, and the Callbacks card shows them', async ({
  page,
  request,
}) => {
  const account = await createAccount(request);
  await loginViaUi(page, account);

  const { endpoint: pushUrl } = await createStreamInConsole(page, {
    caption: 'Hooked pattern',
    format: 'RTMP',
    callbackUri: `${receiver.url}/streamcloud`,
  });
  expect(pushUrl).toMatch(new RegExp(`^rtmp://127\\.0\\.0\\.1:${node().rtmpPort}/live/`));
  const callbacks = page.getByRole('region', { name: 'Callbacks' });
  await expect(callbacks).toContainText('No callbacks sent yet.');

  const push = pushTestPattern(pushUrl, 'flv', 60);
  try {
    await expect(page.getByTestId('stream-status')).toHaveText('Ingestion', { timeout: 20_000 });
    const ingestion = callbacks.getByRole('row', { name: /stream\.ingestion/ });
    await expect(ingestion).toContainText('Delivered', { timeout: 15_000 });
    await expect(ingestion).toContainText('HTTP 200');
  } finally {
    push.stop();
  }
  await expect(page.getByTestId('stream-status')).toHaveText('Idle', { timeout: 20_000 });
  const idle = callbacks.getByRole('row', { name: /stream\.idle/ });
  await expect(idle).toContainText('Delivered', { timeout: 15_000 });

  // What the receiver got: two POSTs signed with the account's secret, as the Webhooks screen shows it.
  await page.getByRole('navigation').getByRole('link', { name: 'Webhooks' }).click();
  const secret = page.getByLabel('Signing secret');
  await expect(secret).toHaveValue(/^whsec_/);
  const webhook = new Webhook(await secret.inputValue());
  const events = receiver.received
    .filter((request) => request.path === '/streamcloud')
    .map((request) => webhook.verify(request.body, request.headers as Record<string, string>) as StreamEvent);
  expect(events.map((event) => event.type)).toEqual(['stream.ingestion', 'stream.idle']);
  expect(events[0]?.data.push).toEqual({ protocol: 'RTMP', address: expect.stringMatching(/^127\./) });
  expect(events[1]?.data.push.bytes).toBeGreaterThan(0);

  // The account's log lists them too; a test event goes the same way, and Redeliver sends one again.
  const log = page.getByRole('table');
  await expect(log.getByRole('row', { name: /stream\.idle/ })).toContainText('Delivered');
  const form = page.getByRole('form', { name: 'Send a test event' });
  await form.getByLabel('URL').fill(`${receiver.url}/test`);
  await form.getByRole('button', { name: 'Send test event' }).click();
  const testEvent = log.getByRole('row', { name: /webhook\.test/ });
  await expect(testEvent).toContainText('Delivered', { timeout: 15_000 });
  await testEvent.getByRole('button', { name: 'Redeliver' }).click();
  // Columns: event, sent to, status, attempts.
  await expect(testEvent.getByRole('cell').nth(3)).toHaveText('2', { timeout: 15_000 });
  await expect
    .poll(() => receiver.received.filter((request) => request.path === '/test').map((r) => r.headers['webhook-id']))
    .toHaveLength(2);
});
