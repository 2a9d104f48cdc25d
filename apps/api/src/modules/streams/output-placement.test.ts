import { randomUUID } from 'node:crypto';
import type { AssignedInput, NodeGroup, StreamOutput } from '@streamcloud/contract';
import { verifyEdgeCredential } from '@streamcloud/contract/edge-credential';
import { describe, expect, it } from 'vitest';
import { type TestAccount, useTestApp } from '../../../test/helpers.js';

const t = useTestApp({}, { roles: true });

const asAdmin = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.request({ method, url, token: t.roles.admin.token, ...(payload ? { payload } : {}) });

/** A node group owned by `owner` (null: the streaming cloud's own), with the given nodes attached. */
const group = (assignment: NodeGroup['assignment'], owner: TestAccount | null, nodeIds: string[] = []) =>
  t.createNodeGroup(t.roles.admin, assignment, owner, nodeIds);

const frankfurt = { code: 'EU', geo: { latitude: 50.1, longitude: 8.68 } };
const sydney = { code: 'OC', geo: { latitude: -33.9, longitude: 151.2 } };
const nodeNamed = (name: string, location = frankfurt) =>
  t.createNode(t.roles.admin, {
    name,
    location,
    connection: { protocol: 'HTTP', hostname: `${name}.example.com`, port: 4242 },
  });
const nodeInputs = async (token: string): Promise<AssignedInput[]> => {
  const response = await t.request({ method: 'GET', url: '/api/v1/node/inputs', token });
  expect(response.statusCode).toBe(200);
  return response.json();
};
const listOutputs = async (streamId: string, token = t.roles.owner.token): Promise<StreamOutput[]> =>
  (await t.request({ method: 'GET', url: `/api/v1/outputs?streamId=${streamId}`, token })).json();
const hlsOutput = (streamId: string, extra: object = {}, token?: string) =>
  t.createOutput({ streamId, format: 'HLS', ...extra }, token);

describe('output assignment', () => {
  it('serves an output from the ingest node when there is no Outgoing group (Common groups do not move viewers)', async () => {
    const origin = await nodeNamed('origin');
    const common = await nodeNamed('common');
    await group('Common', null, [origin.id, common.id]);
    const stream = await t.createInput();
    const output = await hlsOutput(stream.id);
    const ingest = stream.nodeId === origin.id ? origin : common;
    expect(output.node).toEqual({ id: ingest.id, name: ingest.name });
    expect(output.connection?.uri).toBe(
      `http://${ingest.name}.example.com:4242/hls/${encodeURIComponent(output.name)}/index.m3u8`,
    );
    expect((await nodeInputs(ingest.token))[0]?.outputs.map((listed) => listed.id)).toEqual([output.id]);
  });

  it("assigns outputs to the cloud's Outgoing nodes: the URLs, the origin's and the edge's assignments say so", async () => {
    const origin = await nodeNamed('origin');
    const edge = await nodeNamed('edge');
    await group('Outgoing', null, [edge.id]);
    const stream = await t.createInput({ access: 'Private' });
    expect(stream.nodeId).toBe(origin.id);
    const rtmp = await t.createOutput({ streamId: stream.id, format: 'RTMP' });
    expect(rtmp.node).toEqual({ id: edge.id, name: 'edge' });
    expect(rtmp.connection?.uri).toBe(`rtmp://edge.example.com:1935/live/${encodeURIComponent(rtmp.name)}`);
    expect((await listOutputs(stream.id)).map((listed) => [listed.id, listed.node?.name])).toEqual([[rtmp.id, 'edge']]);

    const [atOrigin] = await nodeInputs(origin.token);
    expect(atOrigin).toMatchObject({ id: stream.id, origin: null, outputs: [] });
    expect(atOrigin?.edgeKey).toEqual(expect.any(String));

    const [atEdge] = await nodeInputs(edge.token);
    expect(atEdge).toMatchObject({
      id: stream.id,
      name: stream.name,
      // an edge never takes a push
      accessToken: null,
      ingressName: null,
      edgeKey: null,
      outputs: [{ id: rtmp.id, name: rtmp.name, format: 'RTMP', accessToken: rtmp.viewer.accessToken }],
      origin: { nodeId: origin.id, nodeName: 'origin', hostname: 'origin.example.com', rtmpPort: 1935 },
    });
    // the origin checks the edge's pull credential with the stream's edge key: it names the edge node
    expect(verifyEdgeCredential(atOrigin?.edgeKey ?? '', stream.id, atEdge?.origin?.credential ?? '')).toBe(edge.id);
    expect(verifyEdgeCredential(atOrigin?.edgeKey ?? '', randomUUID(), atEdge?.origin?.credential ?? '')).toBeNull();
  });

  it("prefers the owner's own Outgoing group; other customers' outputs never use it", async () => {
    await nodeNamed('origin');
    const cloudEdge = await nodeNamed('cloud-edge');
    const alicesEdge = await nodeNamed('alice-edge', sydney);
    await group('Outgoing', null, [cloudEdge.id]);
    await group('Outgoing', t.roles.owner, [alicesEdge.id]);
    const alices = await t.createInput();
    expect((await hlsOutput(alices.id)).node?.id).toBe(alicesEdge.id);
    const bobs = await t.createInput({}, t.roles.other.token);
    expect((await hlsOutput(bobs.id, {}, t.roles.other.token)).node?.id).toBe(cloudEdge.id);
  });

  it('picks the edge nearest to the viewer when its place is known', async () => {
    await nodeNamed('origin');
    const fra = await nodeNamed('edge-fra');
    const syd = await nodeNamed('edge-syd', sydney);
    await group('Outgoing', null, [fra.id, syd.id]);
    const stream = await t.createInput();
    const viewer = (geoLocation: object) => ({ viewer: { ipAddress: '', geoLocation } });
    expect((await hlsOutput(stream.id, viewer(sydney.geo))).node?.id).toBe(syd.id);
    expect((await hlsOutput(stream.id, viewer({ latitude: 48.8, longitude: 2.35 }))).node?.id).toBe(fra.id);
  });

  it('gives the outputs of a deleted edge node back to the ingest node', async () => {
    const origin = await nodeNamed('origin');
    const edge = await nodeNamed('edge');
    await group('Outgoing', null, [edge.id]);
    const stream = await t.createInput();
    const output = await hlsOutput(stream.id);
    expect(output.node?.id).toBe(edge.id);
    expect((await asAdmin('DELETE', `/api/v1/nodes/${edge.id}`)).statusCode).toBe(204);
    const [listed] = await listOutputs(stream.id);
    expect(listed?.node).toEqual({ id: origin.id, name: 'origin' });
    expect(listed?.connection?.uri).toContain('origin.example.com');
    expect((await nodeInputs(origin.token))[0]?.outputs.map((served) => served.id)).toEqual([output.id]);
  });

  it('has no node and no URL while the stream waits for one', async () => {
    const stream = await t.createInput();
    expect(stream.status).toBe('Pending');
    expect(await hlsOutput(stream.id)).toMatchObject({ node: null, connection: null });
  });
});

describe('sessions reported by edges', () => {
  it("count only for the outputs a node serves: an edge's for its outputs, never a stream status", async () => {
    const origin = await nodeNamed('origin');
    const edge = await nodeNamed('edge');
    const stream = await t.createInput();
    const atOrigin = await hlsOutput(stream.id);
    await group('Outgoing', null, [edge.id]);
    const atEdge = await hlsOutput(stream.id);
    expect([atOrigin.node?.id, atEdge.node?.id]).toEqual([origin.id, edge.id]);
    const session = (id: string) => ({
      id,
      ipAddress: '198.51.100.7',
      startedAt: new Date().toISOString(),
      bytes: 1000,
    });
    const state = (outputs: object[], extra: object = {}) => ({
      id: randomUUID(),
      kind: 'stream-state',
      streamId: stream.id,
      outputs,
      ...extra,
    });
    const byEdge = await t.report(edge.token, [
      state(
        [
          { outputId: atEdge.id, sessions: [session('edge-viewer')] },
          { outputId: atOrigin.id, sessions: [session('not-its-own')] },
        ],
        { status: 'Ingestion' },
      ),
    ]);
    expect(byEdge.statusCode, byEdge.body).toBe(200);
    const byOrigin = await t.report(origin.token, [
      state([
        { outputId: atOrigin.id, sessions: [session('origin-viewer')] },
        { outputId: atEdge.id, sessions: [] },
      ]),
    ]);
    expect(byOrigin.statusCode).toBe(200);
    const sessions = Object.fromEntries(
      (await listOutputs(stream.id)).map((output) => [output.id, output.sessions.map((listed) => listed.id)]),
    );
    expect(sessions).toEqual({ [atOrigin.id]: ['origin-viewer'], [atEdge.id]: ['edge-viewer'] });
    const read = await t.request({ method: 'GET', url: `/api/v1/inputs/${stream.id}`, token: t.roles.owner.token });
    expect(read.json().status).toBe('Idle');
  });
});

describe("the origin's HLS ladder", () => {
  it('is what the ingest node reports, given to the edges with their origin (an edge cannot change it), gone when the push ends', async () => {
    const origin = await nodeNamed('origin');
    const edge = await nodeNamed('edge');
    await group('Outgoing', null, [edge.id]);
    const stream = await t.createInput();
    expect((await hlsOutput(stream.id)).node?.id).toBe(edge.id);
    const ladder = [
      { key: 'r0', bandwidth: 2_628_000, width: 1280, height: 720, codecs: 'avc1.64001f,mp4a.40.2' },
      { key: 'r1', bandwidth: 928_000, width: 640, height: 360, codecs: 'avc1.64001e,mp4a.40.2' },
      { key: 'a0', bandwidth: 64_000, width: null, height: null, codecs: null },
    ];
    const report = (token: string, fields: object) =>
      t.report(token, [{ id: randomUUID(), kind: 'stream-state', streamId: stream.id, ...fields }]);
    const atEdge = async () => (await nodeInputs(edge.token))[0]?.origin?.renditions;

    expect((await report(origin.token, { status: 'Ingestion' })).statusCode).toBe(200);
    expect(await atEdge()).toBeNull();
    expect((await report(origin.token, { renditions: ladder })).statusCode).toBe(200);
    expect(await atEdge()).toEqual(ladder);
    // The ingest node is no edge of its own stream.
    expect((await nodeInputs(origin.token))[0]?.origin).toBeNull();
    // A node that does not ingest the stream reports only its viewers.
    expect((await report(edge.token, { renditions: null })).statusCode).toBe(200);
    expect(await atEdge()).toEqual(ladder);
    // The transcoder gave up: one media playlist again.
    expect((await report(origin.token, { renditions: null })).statusCode).toBe(200);
    expect(await atEdge()).toBeNull();
    // A push that ends takes its ladder with it.
    expect((await report(origin.token, { renditions: ladder })).statusCode).toBe(200);
    expect((await report(origin.token, { status: 'Idle' })).statusCode).toBe(200);
    expect(await atEdge()).toBeNull();
  });

  it('refuses a rendition with a bad key or a negative bandwidth (400 naming the field), changing nothing', async () => {
    const origin = await nodeNamed('origin');
    const edge = await nodeNamed('edge');
    await group('Outgoing', null, [edge.id]);
    const stream = await t.createInput();
    await hlsOutput(stream.id);
    const rendition = { key: 'r0', bandwidth: 500_000, width: 640, height: 360, codecs: null };
    for (const [bad, path, message] of [
      [{ key: '720p' }, 'body.reports.0.renditions.0.key', 'key must be r<n> or a<n>'],
      [{ bandwidth: -1 }, 'body.reports.0.renditions.0.bandwidth', 'bandwidth must be at least 0'],
    ] as const) {
      const response = await t.report(origin.token, [
        { id: randomUUID(), kind: 'stream-state', streamId: stream.id, renditions: [{ ...rendition, ...bad }] },
      ]);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toContainEqual(expect.objectContaining({ path, message }));
    }
    expect((await nodeInputs(edge.token))[0]?.origin?.renditions).toBeNull();
  });
});

describe('outputs follow their nodes', () => {
  const replace = (silenceMs = 15_000) => t.app.services.outputs.replaceMisplaced(silenceMs);
  const setEnabled = async (name: string, id: string, enabled: boolean) =>
    expect(
      (
        await asAdmin('PUT', `/api/v1/nodes/${id}`, {
          name,
          location: frankfurt,
          connection: { protocol: 'HTTP', hostname: `${name}.example.com`, port: 4242 },
          enabled,
          opened: true,
        })
      ).statusCode,
    ).toBe(200);
  const servedBy = async (streamId: string) => (await listOutputs(streamId)).map((listed) => listed.node?.name);
  const latestMessage = async (streamId: string) =>
    (await t.request({ method: 'GET', url: `/api/v1/inputs/${streamId}`, token: t.roles.owner.token })).json()
      .statusMessages[0]?.text;

  it('moves the outputs of a disabled edge to another edge; a deleted edge hands them to the next one enabled', async () => {
    const origin = await nodeNamed('origin');
    const edge1 = await nodeNamed('edge1');
    const groupId = await group('Outgoing', null, [edge1.id]);
    const stream = await t.createInput();
    expect(stream.nodeId).toBe(origin.id);
    const output = await hlsOutput(stream.id);
    expect(output.node?.name).toBe('edge1');
    expect(await replace()).toBe(0);

    const edge2 = await nodeNamed('edge2');
    await t.request({
      method: 'PUT',
      url: `/api/v1/node-groups/${groupId}/node/${edge2.id}`,
      token: t.roles.admin.token,
    });
    await setEnabled('edge1', edge1.id, false);
    expect(await replace()).toBe(1);
    expect(await servedBy(stream.id)).toEqual(['edge2']);
    expect(await latestMessage(stream.id)).toBe(
      `Viewers of ${output.name} moved to node edge2: node edge1 is disabled`,
    );
    expect((await nodeInputs(edge2.token)).flatMap((input) => input.outputs.map((listed) => listed.id))).toEqual([
      output.id,
    ]);
    expect(await nodeInputs(edge1.token)).toEqual([]);
    expect(await replace()).toBe(0);

    // edge2 deleted: the ingest node serves at once (no other edge is enabled), then edge1 once it is again.
    expect((await asAdmin('DELETE', `/api/v1/nodes/${edge2.id}`)).statusCode).toBe(204);
    expect(await servedBy(stream.id)).toEqual(['origin']);
    expect(await replace()).toBe(0);
    await setEnabled('edge1', edge1.id, true);
    expect(await replace()).toBe(1);
    expect(await servedBy(stream.id)).toEqual(['edge1']);
    expect(await latestMessage(stream.id)).toBe(`Viewers of ${output.name} moved to node edge1`);
  });

  it('an Outgoing group gaining its first node takes the outputs waiting on the ingest node; a silent edge gives them back', async () => {
    await nodeNamed('origin');
    const stream = await t.createInput();
    const output = await hlsOutput(stream.id);
    expect(output.node?.name).toBe('origin');
    expect(await replace()).toBe(0);

    const edge = await nodeNamed('edge');
    expect(await replace()).toBe(0);
    await group('Outgoing', null, [edge.id]);
    expect(await replace()).toBe(1);
    expect(await servedBy(stream.id)).toEqual(['edge']);

    // No node has reported since a moment from now: all are silent, the edge gives its viewers back.
    expect(await replace(-60_000)).toBe(1);
    expect(await servedBy(stream.id)).toEqual(['origin']);
    expect(await latestMessage(stream.id)).toBe(
      `Viewers of ${output.name} moved to the ingest node: node edge stopped reporting`,
    );
  });
});
