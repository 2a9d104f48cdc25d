import { randomUUID } from 'node:crypto';
import type { NodeGroup } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import { type TestAccount, useTestApp } from '../../../test/helpers.js';
import { providerRegistry } from '../node-groups/providers/provider.js';
import { RecordingProvider } from '../node-groups/providers/recording.js';

const aws = new RecordingProvider('AWS');
const t = useTestApp({ scaling: { providers: providerRegistry([aws]) } }, { roles: true });

const asAdmin = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.request({ method, url, token: t.roles.admin.token, ...(payload ? { payload } : {}) });

/** A node group owned by `owner` (null: the streaming cloud's own), with the given nodes attached. */
const group = (assignment: NodeGroup['assignment'], owner: TestAccount | null, nodeIds: string[] = []) =>
  t.createNodeGroup(t.roles.admin, assignment, owner, nodeIds);

const frankfurt = { code: 'EU', geo: { latitude: 50.1, longitude: 8.68 } };
const sydney = { code: 'OC', geo: { latitude: -33.9, longitude: 151.2 } };
/** A streamer in Frankfurt: without the group rules, the node there would win. */
const streamerInFrankfurt = { streamer: { ipAddress: '', geoLocation: frankfurt.geo } };
const nodeNamed = (name: string, location = frankfurt) => t.createNode(t.roles.admin, { name, location });
const NO_NODE = 'No node is available: the stream will be assigned as soon as one is';

describe("a customer's Ingestion group", () => {
  it("takes its owner's streams first, even when a shared node is nearer", async () => {
    await nodeNamed('shared-fra');
    const own = await nodeNamed('alice-syd', sydney);
    await group('Ingestion', t.roles.owner, [own.id]);
    const stream = await t.createInput(streamerInFrankfurt);
    expect(stream.nodeId).toBe(own.id);
  });

  it("never takes another customer's streams: they go to the shared pool, else wait", async () => {
    const own = await nodeNamed('alice-fra');
    await group('Ingestion', t.roles.owner, [own.id]);
    const waiting = await t.createInput(streamerInFrankfurt, t.roles.other.token);
    expect(waiting).toMatchObject({ status: 'Pending', nodeId: null, servingNode: null });
    expect(waiting.statusMessages[0]?.text).toBe(NO_NODE);
    // the assignment job keeps to the rule too
    expect(await t.app.services.streams.assignWaiting()).toBe(0);
    const shared = await nodeNamed('shared-syd', sydney);
    expect(await t.app.services.streams.assignWaiting()).toBe(1);
    const assigned = await t.request({
      method: 'GET',
      url: `/api/v1/inputs/${waiting.id}`,
      token: t.roles.other.token,
    });
    expect(assigned.json()).toMatchObject({ status: 'Idle', nodeId: shared.id });
  });

  it("keeps its nodes for its owner even when they are in one of the cloud's groups too", async () => {
    const own = await nodeNamed('alice-fra');
    await group('Ingestion', t.roles.owner, [own.id]);
    await group('Ingestion', null, [own.id]);
    expect((await t.createInput(streamerInFrankfurt, t.roles.other.token)).status).toBe('Pending');
    expect((await t.createInput(streamerInFrankfurt)).nodeId).toBe(own.id);
  });

  it("keeps a customer's Outgoing group's nodes from other customers' streams as well", async () => {
    const edge = await nodeNamed('alice-edge');
    await group('Outgoing', t.roles.owner, [edge.id]);
    expect((await t.createInput(streamerInFrankfurt, t.roles.other.token)).status).toBe('Pending');
  });

  it('assigns waiting streams of its owner once it has a node, and only those', async () => {
    const alices = await t.createInput();
    const bobs = await t.createInput({}, t.roles.other.token);
    const own = await nodeNamed('alice-fra');
    await group('Ingestion', t.roles.owner, [own.id]);
    expect(await t.app.services.streams.assignWaiting()).toBe(1);
    const read = async (id: string, token: string) =>
      (await t.request({ method: 'GET', url: `/api/v1/inputs/${id}`, token })).json();
    expect(await read(alices.id, t.roles.owner.token)).toMatchObject({ status: 'Idle', nodeId: own.id });
    expect(await read(bobs.id, t.roles.other.token)).toMatchObject({ status: 'Pending', nodeId: null });
  });
});

describe("the streaming cloud's groups", () => {
  it('serve every customer', async () => {
    const cloud = await nodeNamed('cloud-fra');
    await group('Ingestion', null, [cloud.id]);
    expect((await t.createInput({}, t.roles.other.token)).nodeId).toBe(cloud.id);
    expect((await t.createInput()).nodeId).toBe(cloud.id);
  });

  it('keep Outgoing nodes for viewers: a push goes there only when no other node is available', async () => {
    const edge = await nodeNamed('cloud-edge-fra');
    await group('Outgoing', null, [edge.id]);
    expect((await t.createInput(streamerInFrankfurt)).nodeId).toBe(edge.id);
    const far = await nodeNamed('plain-syd', sydney);
    expect((await t.createInput(streamerInFrankfurt)).nodeId).toBe(far.id);
  });
});

describe('scaling-allocated nodes', () => {
  it("join their group: an allocated node of a customer's Ingestion group serves only that customer", async () => {
    const groupId = await group('Ingestion', t.roles.owner);
    const rule = await asAdmin('POST', `/api/v1/node-groups/${groupId}/scaling-rule`, {
      enabled: true,
      actionTimeout: 0,
      condition: { type: 'GroupFull', settings: { type: 'None', comparison: 'More', value: 0, duration: 0 } },
      action: { type: 'Increase', settings: { provider: 'AWS', bandwidthLimitMbps: 1000, amount: 1 } },
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const allocated = await asAdmin('POST', `/api/v1/node-groups/${groupId}/allocate`);
    expect(allocated.statusCode, allocated.body).toBe(201);
    const nodeId = allocated.json().resources[0].node.id as string;
    expect((await t.createInput({}, t.roles.other.token)).status).toBe('Pending');
    expect((await t.createInput()).nodeId).toBe(nodeId);
  });
});

describe('the serving node on the stream', () => {
  it('names the node and the groups the reader may see: its own to a USER, every one to an ADMIN', async () => {
    const node = await nodeNamed('alice-fra');
    const own = await group('Ingestion', t.roles.owner, [node.id]);
    const cloud = await group('Common', null, [node.id]);
    const stream = await t.createInput();
    expect(stream.servingNode).toEqual({
      id: node.id,
      name: 'alice-fra',
      groups: [{ id: own, name: 'Ingestion of alice', assignment: 'Ingestion', ownerId: t.roles.owner.id }],
    });
    const asAdminRead = (await asAdmin('GET', `/api/v1/inputs/${stream.id}`)).json();
    expect(asAdminRead.servingNode.groups).toEqual([
      { id: cloud, name: 'Common of the cloud', assignment: 'Common', ownerId: null },
      { id: own, name: 'Ingestion of alice', assignment: 'Ingestion', ownerId: t.roles.owner.id },
    ]);
    const asOther = await t.request({ method: 'GET', url: `/api/v1/inputs/${stream.id}`, token: t.roles.other.token });
    expect(asOther.statusCode).toBe(404);
  });
});

describe("a node that joins a customer's group", () => {
  it("loses other customers' streams that are not live: moved to a node they may use, else Pending", async () => {
    const node = await nodeNamed('fra');
    const bobs = await t.createInput({}, t.roles.other.token);
    const bobsLive = await t.createInput({}, t.roles.other.token);
    const alices = await t.createInput();
    expect([bobs.nodeId, bobsLive.nodeId, alices.nodeId]).toEqual([node.id, node.id, node.id]);
    const live = await t.report(node.token, [
      { id: randomUUID(), kind: 'stream-state', streamId: bobsLive.id, status: 'Ingestion' },
    ]);
    expect(live.statusCode).toBe(200);
    await group('Ingestion', t.roles.owner, [node.id]);
    const read = async (id: string, token = t.roles.other.token) =>
      (await t.request({ method: 'GET', url: `/api/v1/inputs/${id}`, token })).json();

    expect(await t.app.services.streams.assignWaiting()).toBe(1);
    const taken = await read(bobs.id);
    expect(taken).toMatchObject({ status: 'Pending', nodeId: null, connection: null });
    expect(taken.statusMessages[0].text).toBe(`Taken off: node fra is kept for another customer's streams. ${NO_NODE}`);
    // a live push keeps its node; the owner's stream stays
    expect(await read(bobsLive.id)).toMatchObject({ status: 'Ingestion', nodeId: node.id });
    expect(await read(alices.id, t.roles.owner.token)).toMatchObject({ status: 'Idle', nodeId: node.id });

    // once the push ends, and a shared node exists, the stream moves there
    const shared = await nodeNamed('shared');
    const ended = await t.report(node.token, [
      { id: randomUUID(), kind: 'stream-state', streamId: bobsLive.id, status: 'Idle' },
    ]);
    expect(ended.statusCode).toBe(200);
    expect(await t.app.services.streams.assignWaiting()).toBe(2);
    const moved = await read(bobsLive.id);
    expect(moved).toMatchObject({ status: 'Idle', nodeId: shared.id });
    expect(moved.statusMessages[0].text).toBe("Moved to node shared: node fra is kept for another customer's streams");
    expect(await read(bobs.id)).toMatchObject({ status: 'Idle', nodeId: shared.id });
  });
});
