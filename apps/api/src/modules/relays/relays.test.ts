import { randomUUID } from 'node:crypto';
import { RELAY_MESSAGES } from '@streamcloud/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestAccount, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type Caller = 'anonymous' | 'USER owner' | 'USER other' | 'ADMIN' | 'ADMIN impersonating owner';
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

let admin: TestAccount;
let owner: TestAccount;
let other: TestAccount;
let tokens: Record<Caller, string | undefined>;
let node: { id: string; name: string; token: string };
let streamId: string;

const call = (token: string | undefined, method: Method, url: string, payload?: object) =>
  t.request({ method, url: `/api/v1${url}`, token, ...(payload ? { payload } : {}) });

const createStream = async (token: string) => {
  const response = await call(token, 'POST', '/inputs', { format: 'RTMP' });
  if (response.statusCode !== 201) throw new Error(`stream: ${response.statusCode} ${response.body}`);
  return response.json().id as string;
};

const RTMP = { format: 'RTMP', output: { server: 'rtmp://live.example.com/app', key: 'sk-live-1234' } };
const CMAF = {
  format: 'CMAF',
  output: {
    endpoint: 'https://ingest.example.com/pub/channel.isml',
    unifiedStreamingPlatform: true,
    eventID: 'ev1',
    videoTimescale: 90000,
  },
};
const UDP = { format: 'UDPTS', output: { ipAddress: '239.1.2.3' } };

const createRelay = async (payload: object = RTMP, token = owner.token) => {
  const response = await call(token, 'POST', '/relays', { streamId, ...payload });
  if (response.statusCode !== 201) throw new Error(`relay: ${response.statusCode} ${response.body}`);
  return response.json();
};

const report = async (relayId: string, fields: object, nodeToken = node.token) => {
  const response = await t.report(nodeToken, [{ id: randomUUID(), kind: 'relay-state', relayId, ...fields }]);
  expect(response.statusCode, response.body).toBe(200);
};

const stateOf = async (id: string) => (await call(owner.token, 'GET', `/relays/${id}`)).json().state as string;

beforeEach(async () => {
  await t.reset();
  admin = await t.createAccount('ADMIN', 'root');
  owner = await t.createAccount('USER', 'alice');
  other = await t.createAccount('USER', 'bob');
  tokens = {
    anonymous: undefined,
    'USER owner': owner.token,
    'USER other': other.token,
    ADMIN: admin.token,
    'ADMIN impersonating owner': await t.impersonate(admin, owner),
  };
  node = await t.createNode(admin);
  streamId = await createStream(owner.token);
});

describe('role matrix', () => {
  const all = (success: number): Record<Caller, number> => ({
    anonymous: 401,
    'USER owner': success,
    'USER other': 404,
    ADMIN: success,
    'ADMIN impersonating owner': success,
  });
  const rows: Array<{
    name: string;
    prepare?: (id: string) => Promise<void>;
    call: (id: string) => [Method, string, object?];
    expected: Record<Caller, number>;
  }> = [
    { name: 'POST /relays', call: () => ['POST', '/relays', { streamId, ...UDP }], expected: all(201) },
    { name: 'GET /relays/stream/{streamId}', call: () => ['GET', `/relays/stream/${streamId}`], expected: all(200) },
    {
      name: 'GET /relays/stream/{streamId}?profile=ACTIVE',
      call: () => ['GET', `/relays/stream/${streamId}?profile=ACTIVE`],
      expected: all(200),
    },
    { name: 'GET /relays/{id}', call: (id) => ['GET', `/relays/${id}`], expected: all(200) },
    {
      name: 'PUT /relays/{id}',
      call: (id) => ['PUT', `/relays/${id}`, { ...UDP, output: { ipAddress: '10.0.0.1' } }],
      expected: all(200),
    },
    { name: 'PUT /relays/{id}/stop', call: (id) => ['PUT', `/relays/${id}/stop`], expected: all(200) },
    {
      name: 'DELETE /relays/{id}',
      prepare: (id) => report(id, { state: 'Completed' }),
      call: (id) => ['DELETE', `/relays/${id}`],
      expected: all(204),
    },
  ];
  for (const row of rows) {
    for (const caller of Object.keys(row.expected) as Caller[]) {
      it(`${row.name} as ${caller} answers ${row.expected[caller]}`, async () => {
        const relay = await createRelay(UDP);
        await row.prepare?.(relay.id);
        const [method, url, payload] = row.call(relay.id);
        const response = await call(tokens[caller], method, url, payload);
        expect(response.statusCode, response.body).toBe(row.expected[caller]);
      });
    }
  }

  it('GET /node/relays answers a node token only', async () => {
    expect((await call(undefined, 'GET', '/node/relays')).statusCode).toBe(401);
    expect((await call(owner.token, 'GET', '/node/relays')).statusCode).toBe(401);
    expect((await call(admin.token, 'GET', '/node/relays')).statusCode).toBe(401);
    expect((await call(node.token, 'GET', '/node/relays')).statusCode).toBe(200);
  });
});

describe('POST /relays', () => {
  it('creates each format in state Relaying; the RTMP key is never answered', async () => {
    const rtmp = await createRelay(RTMP);
    expect(rtmp).toMatchObject({
      streamId,
      format: 'RTMP',
      autostart: false,
      state: 'Relaying',
      output: { server: 'rtmp://live.example.com/app', keySet: true },
      capture: { source: 'Incoming', tracks: [{ type: 'Video' }, { type: 'Audio' }] },
      stopRequested: false,
    });
    expect(JSON.stringify(rtmp)).not.toContain('sk-live-1234');
    expect((await createRelay(CMAF)).output).toEqual({
      endpoint: 'https://ingest.example.com/pub/channel.isml',
      unifiedStreamingPlatform: true,
      eventID: 'ev1',
      videoTimescale: 90000,
      audioTimescale: null,
      metaTimescale: null,
    });
    expect((await createRelay(UDP)).output).toEqual({ ipAddress: '239.1.2.3', port: 8888 });
    expect((await createRelay({ format: 'RTMP', output: { server: 'rtmps://x.example/app' } })).output.keySet).toBe(
      false,
    );
  });

  it('keeps the stream key encrypted at rest', async () => {
    const relay = await createRelay(RTMP);
    const row = await sql<{
      key_enc: string;
      output: unknown;
    }>`select key_enc, output from relays where id = ${relay.id}`.execute(t.database.db);
    expect(row.rows[0]?.key_enc).toMatch(/^v1:/);
    expect(JSON.stringify(row.rows[0])).not.toContain('sk-live-1234');
  });

  it.each([
    [{ format: 'RTMP', output: { server: '' } }, 'body.output.server', RELAY_MESSAGES.serverRequired],
    [{ format: 'RTMP', output: { server: 'ftp://x' } }, 'body.output.server', RELAY_MESSAGES.serverUrl],
    [{ format: 'CMAF', output: { endpoint: '' } }, 'body.output.endpoint', RELAY_MESSAGES.endpointRequired],
    [
      { format: 'CMAF', output: { endpoint: 'https://x.example', audioTimescale: 96001 } },
      'body.output.audioTimescale',
      RELAY_MESSAGES.timescale('Audio timescale'),
    ],
    [{ format: 'UDPTS', output: { ipAddress: '1.2.3' } }, 'body.output.ipAddress', RELAY_MESSAGES.ipAddress],
    [{ format: 'UDPTS', output: { ipAddress: '1.2.3.4', port: 70000 } }, 'body.output.port', RELAY_MESSAGES.port],
    [{ format: 'Internode', output: {} }, 'body.format', RELAY_MESSAGES.format],
    [
      { ...UDP, callbackUri: `https://x.example/${'a'.repeat(250)}` },
      'body.callbackUri',
      'Callback URI must be at most 255 characters',
    ],
  ])('answers 400 for %j', async (payload, path, message) => {
    const response = await call(owner.token, 'POST', '/relays', { streamId, ...payload });
    expect(response.statusCode).toBe(400);
    const error = response.json().errors.find((item: { path: string }) => item.path === path);
    expect(error, response.body).toBeTruthy();
    expect(error.message).toBe(message);
  });

  it('answers 404 for a stream of another account', async () => {
    const bobsStream = await createStream(other.token);
    expect((await call(owner.token, 'POST', '/relays', { streamId: bobsStream, ...UDP })).statusCode).toBe(404);
  });
});

describe('PUT /relays/{id}', () => {
  it('keeps the RTMP key when blank or absent, replaces it when given, removes it with null', async () => {
    const relay = await createRelay(RTMP);
    const put = (output: object) =>
      call(owner.token, 'PUT', `/relays/${relay.id}`, {
        format: 'RTMP',
        output: { server: 'rtmp://b.example/app', ...output },
      });
    const nodeKey = async () =>
      (await call(node.token, 'GET', '/node/relays')).json().find((r: { id: string }) => r.id === relay.id).output.key;
    expect((await put({ key: '' })).json().output).toEqual({ server: 'rtmp://b.example/app', keySet: true });
    expect(await nodeKey()).toBe('sk-live-1234');
    await put({});
    expect(await nodeKey()).toBe('sk-live-1234');
    await put({ key: 'sk-new' });
    expect(await nodeKey()).toBe('sk-new');
    expect((await put({ key: null })).json().output.keySet).toBe(false);
    expect(await nodeKey()).toBeNull();
  });

  it('keeps the format and autostart fixed (400); absent callback removed, absent capture kept', async () => {
    const relay = await createRelay({
      ...UDP,
      callbackUri: 'https://hooks.example/r',
      capture: { source: 'Outgoing', tracks: [{ type: 'Video' }] },
    });
    const format = await call(owner.token, 'PUT', `/relays/${relay.id}`, RTMP);
    expect(format.statusCode).toBe(400);
    expect(format.json().message).toBe('Format can be set only when the relay is created');
    const autostart = await call(owner.token, 'PUT', `/relays/${relay.id}`, { ...UDP, autostart: true });
    expect(autostart.json().message).toBe('Autostart can be set only when the relay is created');
    const changed = await call(owner.token, 'PUT', `/relays/${relay.id}`, {
      ...UDP,
      autostart: false,
      output: { ipAddress: '10.1.1.1', port: 0 },
    });
    expect(changed.json()).toMatchObject({
      output: { ipAddress: '10.1.1.1', port: 0 },
      callbackUri: null,
      capture: { source: 'Outgoing', tracks: [{ type: 'Video' }] },
    });
  });
});

describe('states reported by nodes, stop and delete', () => {
  it('goes Relaying → Completed with uploaded bytes and messages; profile=ACTIVE answers Relaying only', async () => {
    const relay = await createRelay(UDP);
    const auto = await createRelay({ ...RTMP, autostart: true });
    await report(relay.id, { uploaded: 2048, messages: [{ level: 'warning', text: 'Slow destination' }] });
    const running = (await call(owner.token, 'GET', `/relays/${relay.id}`)).json();
    expect(running).toMatchObject({ state: 'Relaying', uploaded: 2048 });
    expect(running.messages[0]).toMatchObject({ level: 'warning', text: 'Slow destination' });
    const listed = (await call(owner.token, 'GET', `/relays/stream/${streamId}`)).json();
    expect(listed.map((r: { id: string }) => r.id)).toEqual([auto.id, relay.id]);
    await report(relay.id, { state: 'Completed' });
    const active = (await call(owner.token, 'GET', `/relays/stream/${streamId}?profile=ACTIVE`)).json();
    expect(active.map((r: { id: string }) => r.id)).toEqual([auto.id]);
  });

  it('allows stop only in Relaying, once', async () => {
    const relay = await createRelay(UDP);
    const stopped = await call(owner.token, 'PUT', `/relays/${relay.id}/stop`);
    expect(stopped.json()).toMatchObject({ state: 'Relaying', stopRequested: true });
    expect((await call(owner.token, 'PUT', `/relays/${relay.id}/stop`)).statusCode).toBe(200);
    for (const state of ['Completed', 'Error']) {
      const finished = await createRelay(UDP);
      await report(finished.id, { state });
      const refused = await call(owner.token, 'PUT', `/relays/${finished.id}/stop`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(`A relay can be stopped only while Relaying; it is ${state}`);
    }
  });

  it('allows delete only in Completed or Error', async () => {
    const relay = await createRelay(UDP);
    const refused = await call(owner.token, 'DELETE', `/relays/${relay.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('A relay can be deleted only when Completed or Error; it is Relaying');
    await report(relay.id, { state: 'Error' });
    expect((await call(owner.token, 'DELETE', `/relays/${relay.id}`)).statusCode).toBe(204);
    const done = await createRelay(UDP);
    await report(done.id, { state: 'Completed' });
    expect((await call(owner.token, 'DELETE', `/relays/${done.id}`)).statusCode).toBe(204);
  });

  it('restarts an autostarting relay until stopped; ignores other nodes and disallowed states', async () => {
    const relay = await createRelay({ ...UDP, autostart: true });
    await report(relay.id, { state: 'Completed', uploaded: 10 });
    await report(relay.id, { state: 'Relaying' });
    expect((await call(owner.token, 'GET', `/relays/${relay.id}`)).json()).toMatchObject({
      state: 'Relaying',
      uploaded: 0,
    });
    await call(owner.token, 'PUT', `/relays/${relay.id}/stop`);
    await report(relay.id, { state: 'Completed' });
    await report(relay.id, { state: 'Relaying' });
    expect(await stateOf(relay.id)).toBe('Completed');

    const once = await createRelay(UDP);
    await report(once.id, { state: 'Error' });
    await report(once.id, { state: 'Relaying' });
    expect(await stateOf(once.id)).toBe('Error');

    const stranger = await t.createNode(admin, { enabled: false });
    const fresh = await createRelay(UDP);
    await report(fresh.id, { state: 'Error' }, stranger.token);
    expect(await stateOf(fresh.id)).toBe('Relaying');
  });
});

describe('node-facing GET /node/relays', () => {
  it('answers the relays to run, with the RTMP key in clear', async () => {
    const rtmp = await createRelay(RTMP);
    const cmaf = await createRelay(CMAF);
    const done = await createRelay(UDP);
    await report(done.id, { state: 'Completed' });
    const list = (await call(node.token, 'GET', '/node/relays')).json();
    expect(list.map((r: { id: string }) => r.id).sort()).toEqual([rtmp.id, cmaf.id].sort());
    const stream = (await call(owner.token, 'GET', `/inputs/${streamId}`)).json();
    expect(list.find((r: { id: string }) => r.id === rtmp.id)).toMatchObject({
      streamName: stream.name,
      format: 'RTMP',
      output: { server: 'rtmp://live.example.com/app', key: 'sk-live-1234', keyUnreadable: false },
    });
    const otherNode = await t.createNode(admin);
    expect((await call(otherNode.token, 'GET', '/node/relays')).json()).toEqual([]);
  });
});
