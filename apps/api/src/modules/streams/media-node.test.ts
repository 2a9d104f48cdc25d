import { randomUUID } from 'node:crypto';
import { NOTHING_CONFIGURED } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import { TestClock, useTestApp } from '../../../test/helpers.js';
import { STATUS_MESSAGES_KEPT } from './stream-reads.repository.js';

/** What the media node relies on: its reported ports in the URLs, cleared sessions, and the heartbeat rule. */
const clock = new TestClock();
const t = useTestApp({ clock }, { roles: true });
const setPorts = (token: string, ports: object) =>
  t.request({ method: 'PUT', url: '/api/v1/node/media', token, payload: { ports } });

describe('PUT /node/media (the ports a node reports)', () => {
  it('puts the reported ports into the push and playback URLs; other nodes keep the defaults', async () => {
    const node = await t.createNode(t.roles.admin, {
      connection: { protocol: 'HTTP', hostname: 'media.example.com', port: 4343 },
    });
    const before = await t.createInput({ format: 'RTMP' });
    expect(before.connection).toMatchObject({
      uri: `rtmp://media.example.com:1935/live/${encodeURIComponent(before.name)}`,
    });

    const answer = await setPorts(node.token, { rtmp: 11935, srt: 19710, rtsp: 18554 });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ ports: { rtmp: 11935, srt: 19710, rtsp: 18554 } });
    const rtmp = await t.request({ method: 'GET', url: `/api/v1/inputs/${before.id}`, token: t.roles.owner.token });
    expect(rtmp.json().connection.uri).toBe(`rtmp://media.example.com:11935/live/${encodeURIComponent(before.name)}`);
    const srt = await t.createInput({ format: 'SRT' });
    expect(srt.connection).toMatchObject({
      uri: `srt://media.example.com:19710?streamid=${encodeURIComponent(srt.name)}`,
    });
    const webrtc = await t.createInput({ format: 'WebRTC' });
    expect(webrtc.connection).toMatchObject({
      signallingUri: `http://media.example.com:4343/whip/${encodeURIComponent(webrtc.name)}`,
    });
    const output = await t.request({
      method: 'POST',
      url: '/api/v1/outputs',
      token: t.roles.owner.token,
      payload: { streamId: before.id, format: 'RTMP' },
    });
    expect(output.json().connection.uri).toMatch(/^rtmp:\/\/media\.example\.com:11935\/live\/out%2B/);
    // SRT viewers have a port of their own: the default until the node reports it, then the reported one.
    const srtOutput = await t.createOutput({ streamId: before.id, format: 'SRT' });
    expect(srtOutput.connection?.uri).toMatch(/^srt:\/\/media\.example\.com:9720\?streamid=out%2B/);
    expect((await setPorts(node.token, { rtmp: 11935, srt: 19710, rtsp: 18554, srtPlayback: 19720 })).statusCode).toBe(
      200,
    );
    const srtOutputs = await t.request({
      method: 'GET',
      url: `/api/v1/outputs?streamId=${before.id}`,
      token: t.roles.owner.token,
    });
    expect(srtOutputs.json()[1].connection.uri).toMatch(/^srt:\/\/media\.example\.com:19720\?streamid=out%2B/);

    // A port reported as 0 (service off) falls back to the default in URLs; a second report replaces the first.
    await setPorts(node.token, { rtmp: 0, srt: 29710, rtsp: 0 });
    const again = await t.request({ method: 'GET', url: `/api/v1/inputs/${before.id}`, token: t.roles.owner.token });
    expect(again.json().connection.uri).toBe(`rtmp://media.example.com:1935/live/${encodeURIComponent(before.name)}`);
  });

  it('takes only a node token and valid ports', async () => {
    const node = await t.createNode(t.roles.admin);
    expect((await setPorts(t.roles.admin.token, { rtmp: 1, srt: 2, rtsp: 3 })).statusCode).toBe(401);
    expect(
      (await t.request({ method: 'PUT', url: '/api/v1/node/media', payload: { ports: { rtmp: 1, srt: 2, rtsp: 3 } } }))
        .statusCode,
    ).toBe(401);
    const bad = await setPorts(node.token, { rtmp: 70000, srt: 2, rtsp: 3 });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('RTMP port must be at most 65535');
    const badPlayback = await setPorts(node.token, { rtmp: 1, srt: 2, rtsp: 3, srtPlayback: -1 });
    expect(badPlayback.statusCode).toBe(400);
    expect(badPlayback.body).toContain('SRT playback port must be at least 0');
    expect((await setPorts(node.token, { rtmp: 1, srt: 2 })).statusCode).toBe(400);
  });
});

describe('GET /node/inputs: cleared sessions', () => {
  it('tells the node when an output’s sessions were cleared', async () => {
    const node = await t.createNode(t.roles.admin);
    const input = await t.createInput({ format: 'RTMP' });
    const output = await t.createOutput({ streamId: input.id, format: 'HLS' });
    const read = async () =>
      (await t.request({ method: 'GET', url: '/api/v1/node/inputs', token: node.token })).json()[0].outputs[0];
    expect((await read()).sessionsClearedAt).toBeNull();
    clock.shift(300_000);
    const before = clock.now().getTime();
    expect(
      (await t.request({ method: 'DELETE', url: `/api/v1/outputs/${output.id}/sessions`, token: t.roles.owner.token }))
        .statusCode,
    ).toBe(204);
    const cleared = Date.parse((await read()).sessionsClearedAt);
    expect(cleared).toBeGreaterThanOrEqual(before);
    expect(cleared).toBeLessThan(before + 5000);
  });
});

describe('GET /node/inputs: many pushes at once', () => {
  it('answers every input with its own outputs and ingress name, in as many queries for 8 inputs as for 1', async () => {
    const node = await t.createNode(t.roles.admin);
    const read = async () => {
      let answer: Array<{ id: string; outputs: Array<{ id: string }>; ingressName: string | null }> = [];
      const queries = await t.queryCount(async () => {
        answer = (await t.request({ method: 'GET', url: '/api/v1/node/inputs', token: node.token })).json();
      });
      return { answer, queries };
    };
    const addOutputs = async (streamId: string, count: number) => {
      for (let i = 0; i < count; i++) {
        await t.createOutput({ streamId, format: 'HLS' });
      }
    };
    const first = await t.createInput({ format: 'RTMP' });
    await addOutputs(first.id, 2);
    const one = await read();
    expect(one.answer).toHaveLength(1);

    const others = [];
    for (let i = 0; i < 7; i++) {
      const input = await t.createInput({ format: 'RTMP' });
      await addOutputs(input.id, i % 3);
      others.push(input);
    }
    const gslb = await t.request({
      method: 'POST',
      url: '/api/v1/gslb/input',
      token: t.roles.owner.token,
      payload: { streamId: others[0]?.id },
    });
    expect(gslb.statusCode).toBe(201);
    const eight = await read();
    expect(eight.queries).toBe(one.queries);
    expect(eight.answer.map((input) => input.id)).toEqual([first, ...others].map((input) => input.id).sort());
    for (const input of eight.answer) {
      const listed = await t.request({
        method: 'GET',
        url: `/api/v1/outputs?streamId=${input.id}`,
        token: t.roles.owner.token,
      });
      expect(input.outputs.map((output) => output.id)).toEqual(
        listed.json().map((output: { id: string }) => output.id),
      );
      expect(input.ingressName).toBe(input.id === others[0]?.id ? gslb.json().name : null);
    }
  });
});

describe('POST /node/reports: a wave of pushes', () => {
  const track = { idx: 0, type: 'Video', codec: 'H264', width: 1280, height: 720, bps: 2e6, channels: null, rate: 30 };
  const said = (streamId: string, status: string, text: string) => ({
    id: randomUUID(),
    kind: 'stream-state',
    streamId,
    status,
    message: { level: 'info', text },
    push: { protocol: 'RTMP', remoteAddress: '127.0.0.1' },
  });
  const probed = (streamId: string, outputId: string) => ({
    id: randomUUID(),
    kind: 'stream-state',
    streamId,
    tracks: { incoming: [track], outgoing: [track] },
    outputs: [{ outputId, sessions: [{ id: `s-${outputId}`, ipAddress: null, startedAt: at, bytes: 1000 }] }],
  });
  const at = new Date().toISOString();
  const get = async (id: string, path = '') =>
    (await t.request({ method: 'GET', url: `/api/v1${path || '/inputs/'}${id}`, token: t.roles.owner.token })).json();

  it('applies 8 streams going live in as many queries as 1, and two reports of one stream in their order', async () => {
    const node = await t.createNode(t.roles.admin);
    const inputs = [];
    const outputOf = new Map<string, string>();
    for (let i = 0; i < 9; i++) {
      const input = await t.createInput({ format: 'RTMP' });
      inputs.push(input);
      outputOf.set(input.id, (await t.createOutput({ streamId: input.id, format: 'HLS' })).id);
    }
    const wave = (ids: string[]) =>
      t.queryCount(async () => {
        const reports = [
          ...ids.map((id) => said(id, 'Ingestion', 'Push started over RTMP')),
          ...ids.map((id) => probed(id, outputOf.get(id) ?? '')),
        ];
        expect((await t.report(node.token, reports)).statusCode).toBe(200);
      });
    const one = await wave([inputs[0]?.id ?? '']);
    const eight = await wave(inputs.slice(1).map((input) => input.id));
    expect(eight).toBe(one);
    for (const input of inputs) {
      const [output] = await get(`?streamId=${input.id}`, '/outputs');
      expect(output.sessions.map((session: { id: string }) => session.id)).toEqual([`s-${output.id}`]);
      const stream = await get(input.id);
      expect(stream.status).toBe('Ingestion');
      expect(stream.statusMessages[0].text).toBe('Push started over RTMP');
      expect(await get(`${input.id}/incoming`, '/info/stream/')).toEqual([track]);
      expect(await get(`${input.id}/outgoing`, '/info/stream/')).toEqual([track]);
    }
    // A push that ended and came back within one batch: the second report reads what the first one did.
    const [first] = inputs;
    if (!first) throw new Error('no input');
    const answer = await t.report(node.token, [said(first.id, 'Idle', 'ended'), said(first.id, 'Ingestion', 'back')]);
    expect(answer.statusCode).toBe(200);
    const stream = await get(first.id);
    expect(stream.status).toBe('Ingestion');
    expect(stream.statusMessages.slice(0, 3).map((message: { text: string }) => message.text)).toEqual([
      'back',
      'ended',
      'Push started over RTMP',
    ]);
    // Each stream keeps its STATUS_MESSAGES_KEPT newest messages, however many one batch brings.
    const notes = [];
    for (let n = 0; n < 60; n++)
      for (const input of inputs.slice(0, 2))
        notes.push({
          id: randomUUID(),
          kind: 'stream-state',
          streamId: input.id,
          message: { level: 'info', text: `note ${n}` },
        });
    expect((await t.report(node.token, notes)).statusCode).toBe(200);
    for (const input of inputs.slice(0, 2)) {
      const kept = await t.database.db
        .selectFrom('input_status_messages')
        .select('text')
        .where('input_id', '=', input.id)
        .orderBy('id', 'desc')
        .execute();
      expect(kept).toHaveLength(STATUS_MESSAGES_KEPT);
      expect([kept[0]?.text, kept.at(-1)?.text]).toEqual(['note 59', 'note 10']);
    }
  });
});

describe('GET /node/inputs: versions', () => {
  it('changes the version of exactly the part that changed, and of nothing on a read', async () => {
    const node = await t.createNode(t.roles.admin);
    const input = await t.createInput({ format: 'RTMP' });
    const versions = async (): Promise<Record<string, string>> =>
      (await t.request({ method: 'GET', url: '/api/v1/node/inputs', token: node.token })).json()[0].versions;
    const as = (method: string, url: string, payload: object) =>
      t.request({ method, url: `/api/v1${url}`, token: t.roles.owner.token, payload });
    let before = await versions();
    expect(Object.keys(before).sort()).toEqual(['config', 'fallbacks', 'outputs', 'recordings', 'relays', 'snapshots']);
    // A new stream has none of these: the node skips reading them (NOTHING_CONFIGURED), until its version says so.
    for (const part of ['snapshots', 'recordings', 'relays', 'fallbacks'])
      expect(before[part], part).toBe(NOTHING_CONFIGURED);
    expect(await versions()).toEqual(before);
    const changes: Array<[string, () => Promise<{ statusCode: number }>]> = [
      [
        'config',
        () =>
          as('PUT', `/inputs/${input.id}/output`, {
            tracks: [{ type: 'AAC', rate: 48000, channels: 2, settings: { bitrate: 128 } }],
          }),
      ],
      [
        'snapshots',
        () => as('PUT', `/snapshots/stream/${input.id}/incoming`, { format: 'JPEG', quality: 'Low', interval: 5 }),
      ],
      ['outputs', () => as('POST', '/outputs', { streamId: input.id, format: 'HLS' })],
      [
        'relays',
        () => as('POST', '/relays', { streamId: input.id, format: 'UDPTS', output: { ipAddress: '239.1.2.3' } }),
      ],
      [
        'fallbacks',
        () =>
          as('POST', '/fallbacks', {
            streamId: input.id,
            type: 'Input',
            settings: { resources: [{ type: 'URL', data: 'rtmp://backup.example.com/live/key' }] },
          }),
      ],
    ];
    for (const [part, change] of changes) {
      expect((await change()).statusCode, part).toBeLessThan(300);
      const after = await versions();
      const changed = Object.keys(after).filter((key) => after[key] !== before[key]);
      expect(changed, part).toEqual([part]);
      before = after;
    }
    // What the node reports back (state, tracks, sessions) changes no version.
    await t.report(node.token, [{ id: randomUUID(), kind: 'stream-state', streamId: input.id, status: 'Ingestion' }]);
    expect(await versions()).toEqual(before);
  });
});

describe('a node whose heartbeat is lost', () => {
  const ingest = (token: string, streamId: string) =>
    t.report(token, [{ id: randomUUID(), kind: 'stream-state', streamId, status: 'Ingestion' }]);
  const heartbeat = (token: string) =>
    t.report(token, [{ id: randomUUID(), kind: 'load', cpuPercent: 1, bandwidthMbps: 1, sessions: 1 }]);
  const statusOf = async (id: string) =>
    (await t.request({ method: 'GET', url: `/api/v1/inputs/${id}`, token: t.roles.owner.token })).json();

  it('has its Ingestion inputs set to Error once no report came for the silence time; reporting nodes keep theirs', async () => {
    const silent = await t.createNode(t.roles.admin, { name: 'silent' });
    const first = await t.createInput({ format: 'RTMP' });
    const alive = await t.createNode(t.roles.admin, { name: 'alive' });
    const second = await t.createInput({ format: 'RTMP' });
    expect([first.nodeId, second.nodeId]).toEqual([silent.id, alive.id]);
    expect((await ingest(silent.token, first.id)).statusCode).toBe(200);
    expect((await ingest(alive.token, second.id)).statusCode).toBe(200);

    clock.shift(10_000);
    await heartbeat(alive.token);
    expect(await t.app.services.streams.expireSilentNodes(15_000)).toBe(0);

    clock.shift(16_000);
    expect(await t.app.services.streams.expireSilentNodes(15_000)).toBe(1);
    const expired = await statusOf(first.id);
    expect(expired.status).toBe('Error');
    expect(expired.statusMessages[0]).toMatchObject({
      level: 'error',
      text: 'Node silent stopped reporting for 15 s: the push is lost',
    });
    expect((await statusOf(second.id)).status).toBe('Ingestion');

    // Idempotent: nothing left in Ingestion on the silent node.
    expect(await t.app.services.streams.expireSilentNodes(15_000)).toBe(0);
    // The node comes back and its push resumes.
    expect((await ingest(silent.token, first.id)).statusCode).toBe(200);
    expect((await statusOf(first.id)).status).toBe('Ingestion');
  });

  it('gets no new stream once silent (a crashed node would never take the push), and gets them again once it reports', async () => {
    const crashed = await t.createNode(t.roles.admin, { name: 'crashed' });
    // Registered within the silence time, a node that has not reported yet still takes streams.
    expect((await t.createInput({ format: 'RTMP' })).nodeId).toBe(crashed.id);
    clock.shift(16_000);
    const pending = await t.createInput({ format: 'RTMP' });
    expect(pending.nodeId).toBeNull();
    expect(pending.status).toBe('Pending');
    expect(await t.app.services.streams.assignWaiting()).toBe(0);

    const alive = await t.createNode(t.roles.admin, { name: 'alive' });
    expect((await t.createInput({ format: 'RTMP' })).nodeId).toBe(alive.id);
    // The crashed node has fewer streams, but it is silent: the waiting stream goes to the one that answers.
    expect(await t.app.services.streams.assignWaiting()).toBe(1);
    expect((await statusOf(pending.id)).nodeId).toBe(alive.id);

    clock.shift(16_000);
    expect((await heartbeat(crashed.token)).statusCode).toBe(200);
    expect((await t.createInput({ format: 'RTMP' })).nodeId).toBe(crashed.id);
  });
});
