import { randomUUID } from 'node:crypto';
import { type WebhookEventType, webhookEventSchema } from '@streamcloud/contract';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Roles, startTestApp, type TestAccount, type TestApp } from '../../../test/helpers.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.js';

let t: TestApp;
let receiver: WebhookReceiver;
let roles: Roles;

beforeAll(async () => {
  t = await startTestApp({ webhooks: { dispatch: true, allowPrivateNetworks: true } });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

beforeEach(async () => {
  await t.reset();
  receiver.received.length = 0;
  roles = await t.roleMatrix();
});

const api = async (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
  const response = await t.request({ method, url: `/api/v1${url}`, token, ...(payload ? { payload } : {}) });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.statusCode === 204 ? null : response.json();
};

const secretOf = async (account: TestAccount) => (await api(account.token, 'GET', '/webhooks/secret')).secret as string;

/** Checks each request's signature with the Standard Webhooks reference library and its body with the contract. */
const verified = async (account: TestAccount, count: number) => {
  const requests = await receiver.waitFor(count);
  const webhook = new Webhook(await secretOf(account));
  return requests.map((request) => {
    const body = webhook.verify(request.body, request.headers as Record<string, string>) as {
      type: WebhookEventType;
      id: string;
    };
    expect(request.headers['webhook-id']).toBe(body.id);
    return webhookEventSchema(body.type).parse(body);
  });
};

describe('stream events', () => {
  it('a push start and end deliver stream.ingestion and stream.idle, signed, with the push', async () => {
    const node = await t.createNode(roles.admin);
    const stream = await api(roles.owner.token, 'POST', '/inputs', {
      format: 'RTMP',
      callbackUri: `${receiver.url}/stream`,
    });
    expect(stream.nodeId).toBe(node.id);
    const startedAt = new Date().toISOString();
    await t.report(node.token, [
      {
        id: randomUUID(),
        kind: 'stream-state',
        streamId: stream.id,
        status: 'Ingestion',
        message: { level: 'info', text: 'Push started over RTMP from 203.0.113.7' },
      },
    ]);
    await t.report(node.token, [
      {
        id: randomUUID(),
        kind: 'usage',
        streamId: stream.id,
        incoming: [{ sessionId: 's1', startedAt, duration: 12, upload: 3_000_000, download: 0 }],
      },
      {
        id: randomUUID(),
        kind: 'stream-state',
        streamId: stream.id,
        status: 'Idle',
        message: { level: 'info', text: 'Push ended' },
      },
    ]);
    const [ingestion, idle] = await verified(roles.owner, 2);
    expect(ingestion).toMatchObject({
      type: 'stream.ingestion',
      data: { id: stream.id, status: 'Ingestion', push: { protocol: 'RTMP', address: '203.0.113.7' } },
    });
    expect(idle).toMatchObject({
      type: 'stream.idle',
      data: { id: stream.id, status: 'Idle', push: { protocol: 'RTMP', duration: 12, bytes: 3_000_000 } },
    });
    expect(receiver.received.map((request) => request.path)).toEqual(['/stream', '/stream']);

    const log = await t.request({
      method: 'GET',
      url: `/api/v1/webhooks/deliveries?streamId=${stream.id}`,
      token: roles.owner.token,
    });
    expect(log.headers['x-total-count']).toBe('2');
    await expect
      .poll(async () => (await api(roles.owner.token, 'GET', `/webhooks/deliveries?streamId=${stream.id}`)) as object[])
      .toEqual([
        expect.objectContaining({ type: 'stream.idle', status: 'Delivered', attempts: 1, lastStatusCode: 200 }),
        expect.objectContaining({ type: 'stream.ingestion', status: 'Delivered', attempts: 1, lastStatusCode: 200 }),
      ]);
  });
});
