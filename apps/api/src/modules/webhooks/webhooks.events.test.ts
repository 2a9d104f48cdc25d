import { randomUUID } from 'node:crypto';
import { type WebhookEventType, webhookEventSchema } from '@streamcloud/contract';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Roles, startTestApp, type TestAccount, type TestApp } from '../../../test/helpers.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.js';

/** The events each kind of resource sends, delivered by the app's own dispatcher (NOTIFY wakes it). */

let t: TestApp;
let receiver: WebhookReceiver;
let roles: Roles;
let node: { id: string; token: string };

beforeAll(async () => {
  t = await startTestApp({ webhooks: { dispatch: true } });
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
  node = await t.createNode(roles.admin);
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const api = async (token: string, method: Method, url: string, payload?: object) => {
  const response = await t.request({ method, url: `/api/v1${url}`, token, ...(payload ? { payload } : {}) });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.statusCode === 204 ? null : response.json();
};
const report = async (...reports: object[]) => {
  const response = await t.report(
    node.token,
    reports.map((body) => ({ id: randomUUID(), ...body })),
  );
  expect(response.statusCode, response.body).toBe(200);
};

type Event = { type: WebhookEventType; id: string; occurredAt: string; data: Record<string, unknown> };

/**
 * The first `count` requests, each checked with the Standard Webhooks reference library against the
 * account's secret, its webhook-id against the body's id, and its body against the contract's schema.
 */
const delivered = async (count: number, account: TestAccount = roles.owner): Promise<Event[]> => {
  const requests = await receiver.waitFor(count);
  const webhook = new Webhook((await api(account.token, 'GET', '/webhooks/secret')).secret);
  return requests.map((request) => {
    const body = webhook.verify(request.body, request.headers as Record<string, string>) as Event;
    expect(request.headers['webhook-id']).toBe(body.id);
    expect(request.headers['content-type']).toBe('application/json');
    webhookEventSchema(body.type).parse(body);
    return body;
  });
};

const createStream = (callback = 'stream') =>
  api(roles.owner.token, 'POST', '/inputs', { format: 'RTMP', callbackUri: `${receiver.url}/${callback}` });

describe('streams', () => {
  it('a push start and end send stream.ingestion and stream.idle, with the push, its duration and bytes', async () => {
    const stream = await createStream();
    const startedAt = new Date().toISOString();
    await report({
      kind: 'stream-state',
      streamId: stream.id,
      status: 'Ingestion',
      message: { level: 'info', text: 'Push started over RTMP from 203.0.113.7' },
    });
    await report(
      {
        kind: 'usage',
        streamId: stream.id,
        incoming: [{ sessionId: 's1', startedAt, duration: 12, upload: 3_000_000, download: 0 }],
      },
      { kind: 'stream-state', streamId: stream.id, status: 'Idle', message: { level: 'info', text: 'Push ended' } },
    );
    const [ingestion, idle] = await delivered(2);
    expect(ingestion).toMatchObject({
      type: 'stream.ingestion',
      data: { id: stream.id, status: 'Ingestion', push: { protocol: 'RTMP', address: '203.0.113.7' } },
    });
    expect(idle).toMatchObject({
      type: 'stream.idle',
      data: { id: stream.id, status: 'Idle', push: { protocol: 'RTMP', duration: 12, bytes: 3_000_000 } },
    });
    expect(Date.parse(idle?.occurredAt ?? '')).toBeGreaterThanOrEqual(Date.parse(ingestion?.occurredAt ?? ''));
    expect(receiver.received.map((request) => request.path)).toEqual(['/stream', '/stream']);
    await expect
      .poll(() => api(roles.owner.token, 'GET', `/webhooks/deliveries?streamId=${stream.id}`))
      .toEqual([
        expect.objectContaining({ type: 'stream.idle', status: 'Delivered', attempts: 1, lastStatusCode: 200 }),
        expect.objectContaining({ type: 'stream.ingestion', status: 'Delivered', attempts: 1, lastStatusCode: 200 }),
      ]);
  });

  it('the push the node describes wins over its message', async () => {
    const stream = await createStream();
    await report({
      kind: 'stream-state',
      streamId: stream.id,
      status: 'Ingestion',
      push: { protocol: 'RTMP', remoteAddress: '198.51.100.4' },
    });
    const [ingestion] = await delivered(1);
    expect(ingestion?.data.push).toEqual({ protocol: 'RTMP', address: '198.51.100.4' });
  });

  it('stream.error carries the message; the fallback starting and ending sends stream.fallback', async () => {
    const stream = await createStream();
    await report({ kind: 'stream-state', streamId: stream.id, status: 'Ingestion' });
    await report({ kind: 'stream-state', streamId: stream.id, status: 'Fallback' });
    await report({ kind: 'stream-state', streamId: stream.id, status: 'Ingestion' });
    await report({
      kind: 'stream-state',
      streamId: stream.id,
      status: 'Error',
      message: { level: 'error', text: 'Push failed: the encoder stopped' },
    });
    const events = await delivered(5);
    expect(events.map((event) => [event.type, event.data.status, event.data.fallback ?? null])).toEqual([
      ['stream.ingestion', 'Ingestion', null],
      ['stream.fallback', 'Fallback', { state: 'started' }],
      ['stream.fallback', 'Ingestion', { state: 'ended' }],
      ['stream.ingestion', 'Ingestion', null],
      ['stream.error', 'Error', null],
    ]);
    expect(events[4]?.data.error).toEqual({ message: 'Push failed: the encoder stopped' });
  });

  it('a report that changes no status, and a stream without a callback, send nothing', async () => {
    const quiet = await api(roles.owner.token, 'POST', '/inputs', { format: 'RTMP' });
    const stream = await createStream();
    await report(
      { kind: 'stream-state', streamId: quiet.id, status: 'Ingestion' },
      { kind: 'stream-state', streamId: stream.id, status: 'Idle' },
      { kind: 'stream-state', streamId: stream.id, message: { level: 'info', text: 'hello' } },
    );
    await t.app.services.webhooks.dispatcher.drain();
    expect(receiver.received).toEqual([]);
    expect(await api(roles.admin.token, 'GET', '/webhooks/deliveries')).toEqual([]);
  });

  it('stopping a stream sends stream.idle; a node gone silent sends stream.error', async () => {
    const stopped = await createStream('stopped');
    const silent = await createStream('silent');
    await report(
      { kind: 'stream-state', streamId: stopped.id, status: 'Ingestion' },
      { kind: 'stream-state', streamId: silent.id, status: 'Ingestion' },
    );
    await api(roles.owner.token, 'PUT', `/inputs/${stopped.id}`, { state: 'Idle' });
    await delivered(3);
    expect(await t.app.services.streams.expireSilentNodes(-60_000)).toBe(1);
    const events = await delivered(4);
    const byPath = (path: string) =>
      events.filter((_, index) => receiver.received[index]?.path === path).map((event) => event.type);
    expect(byPath('/stopped')).toEqual(['stream.ingestion', 'stream.idle']);
    expect(byPath('/silent')).toEqual(['stream.ingestion', 'stream.error']);
    expect(events.find((event) => event.type === 'stream.error')?.data.error).toEqual({
      message: expect.stringMatching(/stopped reporting for -60 s: the push is lost$/),
    });
  });

  it('deleting a stream sends stream.deleted and output.deleted for each of its outputs', async () => {
    const stream = await createStream();
    const output = await api(roles.owner.token, 'POST', '/outputs', {
      streamId: stream.id,
      format: 'HLS',
      callbackUri: `${receiver.url}/output`,
    });
    await api(roles.owner.token, 'DELETE', `/inputs/${stream.id}`);
    const events = await delivered(2);
    // Two resources: their events go at once, in either order.
    expect(events.map((event) => [event.type, event.data.id]).sort()).toEqual([
      ['output.deleted', output.id],
      ['stream.deleted', stream.id],
    ]);
    // The log outlives the stream.
    expect(await api(roles.owner.token, 'GET', `/webhooks/deliveries?streamId=${stream.id}`)).toHaveLength(2);
  });
});

describe('outputs', () => {
  it('viewer sessions starting and ending send output.session.started and .ended; so does clearing them', async () => {
    const stream = await createStream();
    const output = await api(roles.owner.token, 'POST', '/outputs', {
      streamId: stream.id,
      format: 'HLS',
      callbackUri: `${receiver.url}/output`,
    });
    const session = (id: string, bytes: number) => ({
      id,
      ipAddress: '192.0.2.9',
      startedAt: '2026-01-01T10:00:00.000Z',
      bytes,
    });
    const sessions = (...list: object[]) => ({
      kind: 'stream-state',
      streamId: stream.id,
      outputs: [{ outputId: output.id, sessions: list }],
    });
    await report(sessions(session('v1', 10)));
    await report(sessions(session('v1', 900), session('v2', 5)));
    await report(sessions(session('v2', 50)));
    await api(roles.owner.token, 'DELETE', `/outputs/${output.id}/sessions`);
    await api(roles.owner.token, 'DELETE', `/outputs/${output.id}`);
    const events = await delivered(5);
    expect(
      events.map((event) => {
        const viewer = event.data.session as { id: string; bytes: number; address: string } | undefined;
        return [event.type, viewer?.id ?? null, viewer?.bytes ?? null, viewer?.address ?? null];
      }),
    ).toEqual([
      ['output.session.started', 'v1', 10, '192.0.2.9'],
      ['output.session.started', 'v2', 5, '192.0.2.9'],
      ['output.session.ended', 'v1', 900, '192.0.2.9'],
      ['output.session.ended', 'v2', 50, '192.0.2.9'],
      ['output.deleted', null, null, null],
    ]);
    expect(events[2]?.data.session).toMatchObject({ endedAt: expect.any(String) });
    expect(events[0]?.data.session).toMatchObject({ endedAt: null });
  });
});

describe('recordings and relays', () => {
  const capture = { source: 'Incoming', tracks: [{ type: 'Video' }, { type: 'Audio' }] };

  /** Two jobs, 'done' and 'failed', each created once the first's event arrived (so they arrive in order). */
  const twoJobs = async (create: (callback: string) => Promise<{ id: string }>) => {
    const done = await create('done');
    await delivered(1);
    const failed = await create('failed');
    await delivered(2);
    return { done, failed };
  };

  it('a recording sends recording.started, then recording.completed with its file, or recording.error', async () => {
    const stream = await api(roles.owner.token, 'POST', '/inputs', { format: 'RTMP' });
    const storage = await api(roles.owner.token, 'POST', '/storages?check=false', {
      name: 'Bucket',
      type: 'AmazonS3',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'very-secret-key',
      bucket: 'media',
    });
    const create = (callback: string) =>
      api(roles.owner.token, 'POST', '/recordings', {
        streamId: stream.id,
        storageId: storage.id,
        capture,
        callbackUri: `${receiver.url}/${callback}`,
      });
    const { done, failed } = await twoJobs(create);
    await report(
      { kind: 'recording-state', recordingId: done.id, state: 'Uploading', duration: 61.5, length: 4_200_000 },
      {
        kind: 'recording-state',
        recordingId: done.id,
        state: 'Completed',
        uploaded: 4_200_000,
        objectKey: 'live/in+abc_2026.mkv',
      },
      {
        kind: 'recording-state',
        recordingId: failed.id,
        state: 'Error',
        messages: [{ level: 'error', text: 'The storage refused the upload (403)' }],
      },
    );
    const events = await delivered(4);
    const byType = (type: string) => events.find((event) => event.type === type)?.data;
    // Two resources: the last two events go at once, in either order.
    expect(events.map((event) => event.type).sort()).toEqual([
      'recording.completed',
      'recording.error',
      'recording.started',
      'recording.started',
    ]);
    expect(events.slice(0, 2).map((event) => event.data.id)).toEqual([done.id, failed.id]);
    expect(byType('recording.completed')).toMatchObject({
      id: done.id,
      state: 'Completed',
      file: { objectKey: 'live/in+abc_2026.mkv', size: 4_200_000, duration: 61.5, storageId: storage.id },
    });
    expect(byType('recording.error')).toMatchObject({
      id: failed.id,
      state: 'Error',
      error: { message: 'The storage refused the upload (403)' },
    });
    expect(await api(roles.owner.token, 'GET', `/webhooks/deliveries?resourceId=${done.id}`)).toHaveLength(2);
  });

  it('a relay sends relay.relaying, then relay.completed or relay.error', async () => {
    const stream = await api(roles.owner.token, 'POST', '/inputs', { format: 'RTMP' });
    const create = (callback: string) =>
      api(roles.owner.token, 'POST', '/relays', {
        streamId: stream.id,
        format: 'UDPTS',
        output: { ipAddress: '239.1.2.3' },
        callbackUri: `${receiver.url}/${callback}`,
      });
    const { done, failed } = await twoJobs(create);
    await report(
      { kind: 'relay-state', relayId: done.id, state: 'Completed', uploaded: 1000 },
      { kind: 'relay-state', relayId: failed.id, state: 'Error' },
    );
    const events = await delivered(4);
    expect(events.map((event) => [event.type, event.data.id]).sort()).toEqual(
      [
        ['relay.relaying', done.id],
        ['relay.relaying', failed.id],
        ['relay.completed', done.id],
        ['relay.error', failed.id],
      ].sort(),
    );
    expect(events.find((event) => event.type === 'relay.error')?.data.error).toEqual({ message: 'The relay failed' });
  });

  it('a relay whose node is gone sends relay.error with the reason (the stuck-item rule)', async () => {
    const stream = await api(roles.owner.token, 'POST', '/inputs', { format: 'RTMP' });
    const relay = await api(roles.owner.token, 'POST', '/relays', {
      streamId: stream.id,
      format: 'UDPTS',
      output: { ipAddress: '239.1.2.3' },
      callbackUri: `${receiver.url}/relay`,
    });
    await report({ kind: 'relay-state', relayId: relay.id, state: 'Relaying', uploaded: 10 });
    await api(roles.admin.token, 'DELETE', `/nodes/${node.id}`);
    expect(await t.app.services.relays.expireLostNodes(15_000)).toBe(1);
    const events = await delivered(2);
    expect(events.map((event) => event.type)).toEqual(['relay.relaying', 'relay.error']);
    expect(events[1]?.data).toMatchObject({
      id: relay.id,
      state: 'Error',
      error: { message: expect.stringMatching(/^Node .+ was deleted: the relay is lost$/) },
    });
  });
});
