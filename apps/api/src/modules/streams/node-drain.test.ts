import { randomUUID } from 'node:crypto';
import type { NodeDrain, StreamOutput } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import { adminOnly, roleMatrixTests, useTestApp } from '../../../test/helpers.js';

// Draining a node (issue 38): nothing new goes there, what is not live moves away, live pushes when they end.
const t = useTestApp({}, { roles: true });

const asAdmin = (method: 'GET' | 'POST' | 'DELETE', url: string) =>
  t.request({ method, url: `/api/v1${url}`, token: t.roles.admin.token });
const drainOf = async (nodeId: string): Promise<NodeDrain> => (await asAdmin('GET', `/nodes/${nodeId}/drain`)).json();
const frankfurt = { code: 'EU', geo: { latitude: 50.1, longitude: 8.68 } };
const nodeNamed = (name: string) =>
  t.createNode(t.roles.admin, {
    name,
    location: frankfurt,
    connection: { protocol: 'HTTP', hostname: `${name}.example.com`, port: 4242 },
  });
const streamOf = async (id: string) =>
  (await t.request({ method: 'GET', url: `/api/v1/inputs/${id}`, token: t.roles.owner.token })).json();
const report = (token: string, streamId: string, status: string) =>
  t.report(token, [{ id: randomUUID(), kind: 'stream-state', streamId, status }]);
const assign = () => t.app.services.streams.assignWaiting();

describe('draining a node', () => {
  roleMatrixTests(
    [
      { name: 'GET /nodes/{id}/drain', call: (id) => ['GET', `/api/v1/nodes/${id}/drain`], expected: adminOnly(200) },
      { name: 'POST /nodes/{id}/drain', call: (id) => ['POST', `/api/v1/nodes/${id}/drain`], expected: adminOnly(200) },
      {
        name: 'DELETE /nodes/{id}/drain',
        call: (id) => ['DELETE', `/api/v1/nodes/${id}/drain`],
        expected: adminOnly(200),
      },
    ],
    {
      roles: () => t.roles,
      subject: async () => (await nodeNamed('drained')).id,
      oneTestPerRow: true,
      // A refused caller changed nothing: the node is not draining.
      check: async (response, _caller, id) => {
        if (response.statusCode >= 400) expect((await drainOf(id)).draining).toBe(false);
      },
    },
  );

  it('places nothing new there, moves its idle streams and edge viewers away, its live push once it ends', async () => {
    const draining = await nodeNamed('a-draining');
    const idle = await t.createInput({ format: 'RTMP' });
    const live = await t.createInput({ format: 'RTMP' });
    expect([idle.nodeId, live.nodeId]).toEqual([draining.id, draining.id]);
    expect((await report(draining.token, live.id, 'Ingestion')).statusCode).toBe(200);
    expect(await drainOf(draining.id)).toEqual({
      draining: false,
      since: null,
      liveStreams: 1,
      otherStreams: 1,
      edgeOutputs: 0,
      drained: false,
    });

    const started = await asAdmin('POST', `/nodes/${draining.id}/drain`);
    expect(started.statusCode).toBe(200);
    const since = started.json().since;
    expect(started.json()).toMatchObject({ draining: true, liveStreams: 1, otherStreams: 1, drained: false });
    // Asking again keeps the first time.
    expect((await asAdmin('POST', `/nodes/${draining.id}/drain`)).json().since).toBe(since);
    expect((await t.auditLog(20)).map((row) => row.action)).toContain('node.drain.start');

    // No other node yet: a new stream waits, the idle one stays (Pending would only lose its URL for nothing).
    expect((await t.createInput({ format: 'RTMP' })).nodeId).toBeNull();
    expect(await assign()).toBe(0);
    expect((await streamOf(idle.id)).nodeId).toBe(draining.id);
    const other = await nodeNamed('b-other');
    expect(await assign()).toBe(2);
    expect((await streamOf(idle.id)).nodeId).toBe(other.id);
    expect((await streamOf(idle.id)).statusMessages[0].text).toBe(
      'Moved to node b-other: node a-draining is being drained',
    );
    expect((await streamOf(live.id)).nodeId).toBe(draining.id);
    expect(await drainOf(draining.id)).toMatchObject({ liveStreams: 1, otherStreams: 0, drained: false });

    // The live push ends (Idle after its grace): it moves at the next pass, and the node is drained.
    expect((await report(draining.token, live.id, 'Idle')).statusCode).toBe(200);
    expect(await assign()).toBe(1);
    expect((await streamOf(live.id)).nodeId).toBe(other.id);
    expect(await drainOf(draining.id)).toEqual({
      draining: true,
      since,
      liveStreams: 0,
      otherStreams: 0,
      edgeOutputs: 0,
      drained: true,
    });

    // Stopped: the node takes streams again (it has fewer than the other).
    const stopped = await asAdmin('DELETE', `/nodes/${draining.id}/drain`);
    expect(stopped.json()).toMatchObject({ draining: false, since: null, drained: false });
    expect((await t.createInput({ format: 'RTMP' })).nodeId).toBe(draining.id);
  });

  it('moves the viewers it serves as an edge to another edge, and places no new viewer output there', async () => {
    await nodeNamed('origin');
    const edge = await nodeNamed('edge1');
    await t.createNodeGroup(t.roles.admin, 'Outgoing', null, [edge.id]);
    const stream = await t.createInput();
    const output: StreamOutput = await t.createOutput({ streamId: stream.id, format: 'HLS' });
    expect(output.node?.name).toBe('edge1');
    expect((await drainOf(edge.id)).edgeOutputs).toBe(1);

    await asAdmin('POST', `/nodes/${edge.id}/drain`);
    expect(await t.app.services.outputs.replaceMisplaced()).toBe(1);
    const moved = (await streamOf(stream.id)).statusMessages[0].text;
    expect(moved).toBe(`Viewers of ${output.name} moved to the ingest node: node edge1 is being drained`);
    expect(await drainOf(edge.id)).toMatchObject({ edgeOutputs: 0, drained: true });
    const next: StreamOutput = await t.createOutput({ streamId: stream.id, format: 'HLS' });
    expect(next.node?.name).toBe('origin');
  });

  it('answers 404 for an unknown node', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      expect((await asAdmin(method, `/nodes/${randomUUID()}/drain`)).statusCode).toBe(404);
    }
  });
});
