import { RELAY_MESSAGES } from '@streamcloud/contract';
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { expectValidationError, useTestApp } from '../../../test/helpers.js';
import { StreamJobWorld, streamJobAccessTests, streamJobLostNodeTests } from '../../../test/stream-jobs.js';

const t = useTestApp(() => ({ clock: w.clock }), { roles: true });
const w = new StreamJobWorld(t, { path: 'relays', reportKind: 'relay-state', reportKey: 'relayId' });
const { call, report, stateOf } = w;

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

const createRelay = async (payload: object = RTMP, token = w.owner.token) => {
  const response = await call(token, 'POST', '/relays', { streamId: w.streamId, ...payload });
  if (response.statusCode !== 201) throw new Error(`relay: ${response.statusCode} ${response.body}`);
  return response.json();
};

beforeEach(() => w.setUp());

describe('role matrix', () => {
  streamJobAccessTests(w, {
    create: (streamId) => ({ streamId, ...UDP }),
    update: () => ({ ...UDP, output: { ipAddress: '10.0.0.1' } }),
    createJob: async () => (await createRelay(UDP)).id,
  });
});

describe('a node that is gone (the stuck-item rule)', () => {
  streamJobLostNodeTests(w, {
    createJob: async () => (await createRelay(UDP)).id,
    expire: (silenceMs) => t.app.services.relays.expireLostNodes(silenceMs),
    noun: 'relay',
    running: 'Relaying',
    recoverable: false,
  });
});

describe('POST /relays', () => {
  it('creates each format in state Relaying; the RTMP key is never answered', async () => {
    const rtmp = await createRelay(RTMP);
    expect(rtmp).toMatchObject({
      streamId: w.streamId,
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
    expectValidationError(
      await call(w.owner.token, 'POST', '/relays', { streamId: w.streamId, ...payload }),
      path,
      message,
    );
  });
});

describe('PUT /relays/{id}', () => {
  it('keeps the RTMP key when blank or absent, replaces it when given, removes it with null', async () => {
    const relay = await createRelay(RTMP);
    const put = (output: object) =>
      call(w.owner.token, 'PUT', `/relays/${relay.id}`, {
        format: 'RTMP',
        output: { server: 'rtmp://b.example/app', ...output },
      });
    const nodeKey = async () =>
      (await call(w.node.token, 'GET', '/node/relays')).json().find((r: { id: string }) => r.id === relay.id).output
        .key;
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
    const format = await call(w.owner.token, 'PUT', `/relays/${relay.id}`, RTMP);
    expect(format.statusCode).toBe(400);
    expect(format.json().message).toBe('Format can be set only when the relay is created');
    const autostart = await call(w.owner.token, 'PUT', `/relays/${relay.id}`, { ...UDP, autostart: true });
    expect(autostart.json().message).toBe('Autostart can be set only when the relay is created');
    const changed = await call(w.owner.token, 'PUT', `/relays/${relay.id}`, {
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
    const running = (await call(w.owner.token, 'GET', `/relays/${relay.id}`)).json();
    expect(running).toMatchObject({ state: 'Relaying', uploaded: 2048 });
    expect(running.messages[0]).toMatchObject({ level: 'warning', text: 'Slow destination' });
    const listed = (await call(w.owner.token, 'GET', `/relays/stream/${w.streamId}`)).json();
    expect(listed.map((r: { id: string }) => r.id)).toEqual([auto.id, relay.id]);
    await report(relay.id, { state: 'Completed' });
    const active = (await call(w.owner.token, 'GET', `/relays/stream/${w.streamId}?profile=ACTIVE`)).json();
    expect(active.map((r: { id: string }) => r.id)).toEqual([auto.id]);
  });

  it('allows stop only in Relaying, once', async () => {
    const relay = await createRelay(UDP);
    const stopped = await call(w.owner.token, 'PUT', `/relays/${relay.id}/stop`);
    expect(stopped.json()).toMatchObject({ state: 'Relaying', stopRequested: true });
    expect((await call(w.owner.token, 'PUT', `/relays/${relay.id}/stop`)).statusCode).toBe(200);
    for (const state of ['Completed', 'Error']) {
      const finished = await createRelay(UDP);
      await report(finished.id, { state });
      const refused = await call(w.owner.token, 'PUT', `/relays/${finished.id}/stop`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(`A relay can be stopped only while Relaying; it is ${state}`);
    }
  });

  it('allows delete only in Completed or Error', async () => {
    const relay = await createRelay(UDP);
    const refused = await call(w.owner.token, 'DELETE', `/relays/${relay.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('A relay can be deleted only when Completed or Error; it is Relaying');
    await report(relay.id, { state: 'Error' });
    expect((await call(w.owner.token, 'DELETE', `/relays/${relay.id}`)).statusCode).toBe(204);
    const done = await createRelay(UDP);
    await report(done.id, { state: 'Completed' });
    expect((await call(w.owner.token, 'DELETE', `/relays/${done.id}`)).statusCode).toBe(204);
  });

  it('restarts an autostarting relay until stopped; ignores other nodes and disallowed states', async () => {
    const relay = await createRelay({ ...UDP, autostart: true });
    await report(relay.id, { state: 'Completed', uploaded: 10 });
    await report(relay.id, { state: 'Relaying' });
    expect((await call(w.owner.token, 'GET', `/relays/${relay.id}`)).json()).toMatchObject({
      state: 'Relaying',
      uploaded: 0,
    });
    await call(w.owner.token, 'PUT', `/relays/${relay.id}/stop`);
    await report(relay.id, { state: 'Completed' });
    await report(relay.id, { state: 'Relaying' });
    expect(await stateOf(relay.id)).toBe('Completed');

    const once = await createRelay(UDP);
    await report(once.id, { state: 'Error' });
    await report(once.id, { state: 'Relaying' });
    expect(await stateOf(once.id)).toBe('Error');

    const stranger = await t.createNode(w.admin, { enabled: false });
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
    const list = (await call(w.node.token, 'GET', '/node/relays')).json();
    expect(list.map((r: { id: string }) => r.id).sort()).toEqual([rtmp.id, cmaf.id].sort());
    const stream = (await call(w.owner.token, 'GET', `/inputs/${w.streamId}`)).json();
    expect(list.find((r: { id: string }) => r.id === rtmp.id)).toMatchObject({
      streamName: stream.name,
      format: 'RTMP',
      output: { server: 'rtmp://live.example.com/app', key: 'sk-live-1234', keyUnreadable: false },
    });
    const otherNode = await t.createNode(w.admin);
    expect((await call(otherNode.token, 'GET', '/node/relays')).json()).toEqual([]);
  });
});
