import { WEBHOOK_EVENT_TYPES } from '@streamcloud/contract';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type Caller,
  expectValidationError,
  type MatrixRow,
  ownerOnly,
  type Roles,
  roleMatrixTests,
  startTestApp,
  type TestApp,
} from '../../../test/helpers.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.js';
import type { Db } from '../../db/database.js';

/**
 * Delivery (retries, giving up, Redeliver, signatures and rotation, test events), the log and secret API
 * and who may use it. The dispatcher is not started: each test sends what is due with `drain()`, moving
 * the app's clock past the retry delays.
 */

let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
const advance = (ms: number) => {
  offsetMs += ms;
};
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let t: TestApp;
let receiver: WebhookReceiver;
let roles: Roles;

/** Everything the API logs, at every level: secrets must never be in it. */
const logged: string[] = [];

beforeAll(async () => {
  t = await startTestApp({ clock, logger: { level: 'trace', stream: { write: (line: string) => logged.push(line) } } });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

beforeEach(async () => {
  offsetMs = 0;
  await t.reset();
  receiver.received.length = 0;
  roles = await t.roleMatrix();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (caller: Caller, method: Method, url: string, payload?: object) =>
  roles.call(caller, method, `/api/v1${url}`, payload);
const owner = async (method: Method, url: string, payload?: object) => {
  const response = await call('USER owner', method, url, payload);
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json();
};
/** Tokens expire when the clock moves on by a day: the owner signs in again. */
const signInAgain = async () => {
  roles.tokens['USER owner'] = await t.login(roles.owner.username, roles.owner.password);
};
const drain = () => t.app.services.webhooks.dispatcher.drain();
const sendTest = (path = '/hook') => owner('POST', '/webhooks/test', { url: `${receiver.url}${path}` });
const logOf = async (id: string) => owner('GET', `/webhooks/deliveries/${id}`);

describe('delivery', () => {
  it('a receiver answering 500 twice then 200 gets the event three times, and the log shows each attempt', async () => {
    receiver.answer(500, 500, 200);
    const test = await sendTest();
    expect(test).toMatchObject({ type: 'webhook.test', status: 'Pending', attempts: 0 });
    expect(await drain()).toBe(1);
    const first = await logOf(test.id);
    expect(first).toMatchObject({ status: 'Pending', attempts: 1, lastStatusCode: 500, lastError: 'HTTP 500: ok' });
    // The first retry comes 30 s later, give or take 20 %.
    const delay = Date.parse(first.nextAttemptAt) - Date.parse(first.lastAttemptAt);
    expect(delay).toBeGreaterThanOrEqual(24_000);
    expect(delay).toBeLessThanOrEqual(36_000);
    expect(await drain()).toBe(0);
    advance(36_001);
    expect(await drain()).toBe(1);
    expect(await logOf(test.id)).toMatchObject({ status: 'Pending', attempts: 2, lastStatusCode: 500 });
    advance(2.4 * MINUTE + 1);
    expect(await drain()).toBe(1);
    expect(await logOf(test.id)).toMatchObject({
      status: 'Delivered',
      attempts: 3,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
      deliveredAt: expect.any(String),
    });
    expect(receiver.received.map((request) => request.headers['webhook-id'])).toEqual([test.id, test.id, test.id]);
    // Each attempt is signed anew; the body is the same.
    expect(new Set(receiver.received.map((request) => request.body)).size).toBe(1);
  });

  it('counts a retry from the attempt’s start, however long the receiver takes to answer', async () => {
    receiver.answer(500);
    receiver.hold();
    const test = await sendTest();
    const sending = drain();
    await receiver.waitFor(1);
    advance(20_000);
    receiver.release();
    expect(await sending).toBe(1);
    const first = await logOf(test.id);
    expect(first).toMatchObject({ status: 'Pending', attempts: 1, lastStatusCode: 500 });
    const delay = Date.parse(first.nextAttemptAt) - Date.parse(first.lastAttemptAt);
    expect(delay).toBeGreaterThanOrEqual(24_000);
    expect(delay).toBeLessThanOrEqual(36_000);
  });

  it('gives up as Failed after the last retry (30 s, 2 min, 10 min, 1 h, 6 h, 24 h)', async () => {
    receiver.answer(...Array(7).fill(503));
    const test = await sendTest();
    const delays = [0, 36_001, 2.4 * MINUTE, 12 * MINUTE, 1.2 * HOUR, 7.2 * HOUR, 28.8 * HOUR];
    for (const delay of delays) {
      advance(delay);
      expect(await drain()).toBe(1);
    }
    advance(48 * HOUR);
    expect(await drain()).toBe(0);
    const row = await t.app.services.webhooks.repository.findById(test.id);
    expect(row).toMatchObject({ status: 'Failed', attempts: 7, last_status_code: 503, next_attempt_at: null });
    expect(receiver.received).toHaveLength(7);
  });

  it('Redeliver sends a delivered event again now, with the same id and body, and a fresh series', async () => {
    const test = await sendTest();
    await drain();
    const again = await owner('POST', `/webhooks/deliveries/${test.id}/redeliver`);
    expect(again).toMatchObject({ id: test.id, status: 'Pending', attempts: 1 });
    await drain();
    expect(await logOf(test.id)).toMatchObject({ status: 'Delivered', attempts: 2 });
    expect(receiver.received.map((request) => request.headers['webhook-id'])).toEqual([test.id, test.id]);
    expect(receiver.received[1]?.body).toBe(receiver.received[0]?.body);
  });

  it('a change that rolls back writes no event', async () => {
    const db = t.database.db as Db;
    await expect(
      db.transaction().execute(async (trx) => {
        await t.app.services.webhooks.outbox.emit(trx as unknown as Db, {
          type: 'webhook.test',
          accountId: roles.owner.id,
          resourceType: 'account',
          resourceId: roles.owner.id,
          streamId: null,
          url: `${receiver.url}/rolled-back`,
          occurredAt: clock.now(),
          data: { accountId: roles.owner.id, message: 'never' },
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await drain()).toBe(0);
    expect(await owner('GET', '/webhooks/deliveries')).toEqual([]);
  });

  it('an unreachable receiver is a failure with a reason, retried later', async () => {
    const closed = await startWebhookReceiver();
    await closed.close();
    const test = await owner('POST', '/webhooks/test', { url: `${closed.url}/gone` });
    await drain();
    expect(await logOf(test.id)).toMatchObject({
      status: 'Pending',
      attempts: 1,
      lastStatusCode: null,
      lastError: 'The receiver cannot be reached',
    });
  });
});

describe('signing secret', () => {
  it('is whsec_ and 32 bytes, the same on every read, and signs every delivery', async () => {
    const first = await owner('GET', '/webhooks/secret');
    expect(first).toMatchObject({ accountId: roles.owner.id, previousExpiresAt: null });
    expect(first.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(first.secret.slice(6), 'base64')).toHaveLength(32);
    expect((await owner('GET', '/webhooks/secret')).secret).toBe(first.secret);
    await sendTest();
    await drain();
    const [request] = receiver.received;
    expect(new Webhook(first.secret).verify(request?.body ?? '', request?.headers as Record<string, string>)).toEqual(
      expect.objectContaining({ type: 'webhook.test' }),
    );
  });

  it('is stored sealed: the database never holds it in clear', async () => {
    const { secret } = await owner('GET', '/webhooks/secret');
    const row = await t.database.db
      .selectFrom('webhook_secrets')
      .selectAll()
      .where('scope', '=', roles.owner.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret.slice(6));
  });

  it('rotating it signs with the new and the old one for 24 hours, then the new one only', async () => {
    const old = (await owner('GET', '/webhooks/secret')).secret;
    const rotated = await owner('POST', '/webhooks/secret/rotate', {});
    expect(rotated.secret).not.toBe(old);
    expect(Date.parse(rotated.previousExpiresAt) - Date.now()).toBeGreaterThan(23.9 * HOUR);
    await sendTest();
    await drain();
    const request = receiver.received[0];
    const headers = request?.headers as Record<string, string>;
    expect(String(headers['webhook-signature']).split(' ')).toHaveLength(2);
    // verify() throws on a signature that does not match and answers the payload otherwise.
    for (const secret of [old, rotated.secret])
      expect(new Webhook(secret).verify(request?.body ?? '', headers)).toEqual(JSON.parse(request?.body ?? ''));

    advance(24 * HOUR + MINUTE);
    await signInAgain();
    const later = await sendTest();
    await drain();
    const last = receiver.received[1];
    expect(last?.headers['webhook-id']).toBe(later.id);
    expect(String(last?.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect((await owner('GET', '/webhooks/secret')).previousExpiresAt).toBeNull();
  });

  it('never appears in the API log, nor any signature made with it, through rotation and failing deliveries', async () => {
    logged.length = 0;
    const old = (await owner('GET', '/webhooks/secret')).secret;
    const rotated = (await owner('POST', '/webhooks/secret/rotate', {})).secret;
    receiver.answer(500);
    await sendTest();
    await drain();
    advance(2 * MINUTE);
    await drain();
    expect(receiver.received).toHaveLength(2);
    const signatures = receiver.received.flatMap((request) =>
      String(request.headers['webhook-signature'])
        .split(' ')
        .map((signature) => signature.slice(3)),
    );
    expect(logged.length).toBeGreaterThan(0);
    const log = logged.join('');
    for (const secret of [old.slice(6), rotated.slice(6), ...signatures]) expect(log).not.toContain(secret);
  });
});

describe('log', () => {
  it('pages newest first with X-Total-Count, and filters by status', async () => {
    receiver.answer(200, 200, 500);
    for (const path of ['/a', '/b', '/c']) {
      await sendTest(path);
      await drain();
    }
    const page = await call('USER owner', 'GET', '/webhooks/deliveries?limit=2');
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.json().map((delivery: { url: string }) => delivery.url)).toEqual([
      `${receiver.url}/c`,
      `${receiver.url}/b`,
    ]);
    expect(
      (await owner('GET', '/webhooks/deliveries?status=Pending')).map((delivery: { url: string }) => delivery.url),
    ).toEqual([`${receiver.url}/c`]);
  });

  it('a delivery answers the body it sends', async () => {
    const test = await sendTest();
    expect((await logOf(test.id)).payload).toEqual({
      type: 'webhook.test',
      id: test.id,
      occurredAt: test.occurredAt,
      data: { accountId: roles.owner.id, message: `Test event sent by ${roles.owner.username}` },
    });
  });

  it('an ADMIN sees every account and can name one; a USER naming another account gets 404', async () => {
    await sendTest();
    await roles.call('USER other', 'POST', '/api/v1/webhooks/test', { url: `${receiver.url}/bob` });
    expect(await owner('GET', '/webhooks/deliveries')).toHaveLength(1);
    expect((await call('ADMIN', 'GET', '/webhooks/deliveries')).json()).toHaveLength(2);
    expect((await call('ADMIN', 'GET', `/webhooks/deliveries?account=${roles.other.id}`)).json()).toEqual([
      expect.objectContaining({ accountId: roles.other.id, url: `${receiver.url}/bob` }),
    ]);
    expect((await call('USER owner', 'GET', `/webhooks/deliveries?account=${roles.other.id}`)).statusCode).toBe(404);
    const bobs = (await call('ADMIN', 'GET', `/webhooks/deliveries?account=${roles.other.id}`)).json()[0];
    expect((await call('USER owner', 'GET', `/webhooks/deliveries?resourceId=${bobs.resourceId}`)).statusCode).toBe(
      404,
    );
  });

  it('refuses bad input with 400 naming the field and rule, and writes nothing', async () => {
    expectValidationError(
      await call('USER owner', 'POST', '/webhooks/test', { url: 'ftp://example.com/x' }),
      'body.url',
      'URL must be an http(s) URL',
    );
    expectValidationError(await call('USER owner', 'POST', '/webhooks/test', {}), 'body.url');
    expectValidationError(
      await call('USER owner', 'POST', '/webhooks/test', { url: `https://example.com/${'x'.repeat(255)}` }),
      'body.url',
      'URL must be at most 255 characters',
    );
    expectValidationError(await call('USER owner', 'GET', '/webhooks/deliveries?status=Lost'), 'querystring.status');
    expectValidationError(await call('USER owner', 'GET', '/webhooks/secret?account=someone'), 'querystring.account');
    expect(await owner('GET', '/webhooks/deliveries')).toEqual([]);
  });

  it('an ADMIN naming an account that does not exist gets 404', async () => {
    const response = await call('ADMIN', 'GET', '/webhooks/secret?account=00000000-0000-4000-8000-000000000000');
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('Account not found');
  });

  it('finished deliveries older than 30 days are dropped; pending ones stay', async () => {
    receiver.answer(200, 500);
    await sendTest('/old-delivered');
    await sendTest('/old-pending');
    await drain();
    advance(31 * 24 * HOUR);
    await signInAgain();
    expect(
      await t.app.services.webhooks.repository.deleteFinishedBefore(new Date(clock.now().getTime() - 30 * 24 * HOUR)),
    ).toBe(1);
    expect((await owner('GET', '/webhooks/deliveries')).map((delivery: { url: string }) => delivery.url)).toEqual([
      `${receiver.url}/old-pending`,
    ]);
  });

  it('the OpenAPI document describes every event in its webhooks section', async () => {
    const document = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    expect(Object.keys(document.webhooks)).toEqual([...WEBHOOK_EVENT_TYPES]);
    const ingestion = document.webhooks['stream.ingestion'].post;
    expect(ingestion.parameters.map((parameter: { name: string }) => parameter.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    const schema = ingestion.requestBody.content['application/json'].schema;
    expect(schema.properties.type).toMatchObject({ const: 'stream.ingestion' });
    expect(schema.properties.data.properties.push.properties).toHaveProperty('protocol');
  });
});

describe('role matrix', () => {
  interface Subject {
    delivery: string;
  }
  const rows: MatrixRow<Subject>[] = [
    {
      name: 'GET /webhooks/deliveries?account={owner}',
      call: () => ['GET', `/api/v1/webhooks/deliveries?account=${roles.owner.id}`],
      expected: ownerOnly(200),
    },
    {
      name: 'GET /webhooks/deliveries/{id}',
      call: ({ delivery }) => ['GET', `/api/v1/webhooks/deliveries/${delivery}`],
      expected: ownerOnly(200),
    },
    {
      name: 'POST /webhooks/deliveries/{id}/redeliver',
      call: ({ delivery }) => ['POST', `/api/v1/webhooks/deliveries/${delivery}/redeliver`],
      expected: ownerOnly(200),
    },
    {
      name: 'GET /webhooks/secret?account={owner}',
      call: () => ['GET', `/api/v1/webhooks/secret?account=${roles.owner.id}`],
      expected: ownerOnly(200),
    },
    {
      name: 'POST /webhooks/secret/rotate {account: owner}',
      call: () => ['POST', '/api/v1/webhooks/secret/rotate', { account: roles.owner.id }],
      expected: ownerOnly(200),
    },
    {
      name: 'POST /webhooks/test {account: owner}',
      call: () => ['POST', '/api/v1/webhooks/test', { url: `${receiver.url}/matrix`, account: roles.owner.id }],
      expected: ownerOnly(202),
    },
    {
      name: 'GET /webhooks/secret?account=platform',
      call: () => ['GET', '/api/v1/webhooks/secret?account=platform'],
      expected: { ...ownerOnly(404), ADMIN: 200 },
    },
  ];
  roleMatrixTests(rows, {
    roles: () => roles,
    subject: async () => ({ delivery: (await sendTest()).id }),
    oneTestPerRow: true,
    check: (response, caller) => {
      // Whoever may see a secret sees the owner's (or the platform's), never their own by mistake.
      if (response.statusCode === 200 && 'secret' in response.json()) {
        const { accountId } = response.json();
        expect([roles.owner.id, null]).toContain(accountId);
        expect(caller).not.toBe('USER other');
      }
    },
  });
});
