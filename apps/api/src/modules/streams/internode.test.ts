import { randomUUID } from 'node:crypto';
import type { AssignedInput, StreamInput } from '@streamcloud/contract';
import { verifyEdgeCredential } from '@streamcloud/contract/edge-credential';
import { describe, expect, it } from 'vitest';
import { type MatrixRow, roleMatrixTests, useTestApp } from '../../../test/helpers.js';

/** Internode streams (docs/decisions.md, "Internode streams"): a stream whose source is another stream on another node. */
const t = useTestApp({}, { roles: true });

const nodeNamed = (name: string) =>
  t.createNode(t.roles.admin, { name, connection: { protocol: 'HTTP', hostname: `${name}.example.com`, port: 4242 } });
const nodeInputs = async (token: string): Promise<AssignedInput[]> => {
  const response = await t.request({ method: 'GET', url: '/api/v1/node/inputs', token });
  expect(response.statusCode).toBe(200);
  return response.json();
};
const listTotal = async () =>
  (await t.request({ method: 'GET', url: '/api/v1/inputs', token: t.roles.admin.token })).headers['x-total-count'];

/** Node A with the owner's source stream on it, and node B for the Internode stream. */
async function world() {
  const a = await nodeNamed('node-a');
  const source = await t.createInput({ caption: 'source' });
  const b = await nodeNamed('node-b');
  expect(source.nodeId).toBe(a.id);
  return { a, b, source, internode: { format: 'Internode', source: { streamNode: 'node-a', name: source.name } } };
}

describe('role matrix: creating an Internode stream', () => {
  // The source must be a stream the caller may see: another USER is told it knows no such stream.
  const rows: MatrixRow<{ body: object }>[] = [
    {
      name: 'POST /inputs (Internode)',
      call: ({ body }) => ['POST', '/api/v1/inputs', body],
      expected: { anonymous: 401, 'USER owner': 201, 'USER other': 400, 'ADMIN impersonating owner': 201, ADMIN: 201 },
    },
  ];
  roleMatrixTests(rows, {
    roles: () => t.roles,
    subject: async () => ({ body: (await world()).internode }),
    check: (response, caller) => {
      if (response.statusCode === 201)
        expect(response.json()).toMatchObject({ format: 'Internode', source: { streamNode: 'node-a' } });
      if (caller === 'USER other') expect(response.json().code).toBe('UNKNOWN_SOURCE');
    },
  });
});

describe('POST /inputs with format Internode', () => {
  it('places the stream on another node than its source, shows where it pulls from, tells its node what to pull', async () => {
    const { a, b, source, internode } = await world();
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/inputs',
      token: t.roles.owner.token,
      payload: { ...internode, caption: 'copy', access: 'Private' },
    });
    expect(created.statusCode).toBe(201);
    const copy = created.json() as StreamInput;
    expect(copy).toMatchObject({
      format: 'Internode',
      status: 'Idle',
      nodeId: b.id,
      connection: { hostname: 'node-a.example.com', streamNode: 'node-a' },
      source: { id: source.id, name: source.name, streamNode: 'node-a' },
    });
    // It takes no push, so no GSLB endpoint either.
    const gslb = await t.roles.call('USER owner', 'POST', '/api/v1/gslb/input', { streamId: copy.id });
    expect(gslb.statusCode).toBe(400);
    expect(gslb.json()).toMatchObject({
      code: 'INTERNODE_NO_PUSH',
      message: 'An Internode stream takes no push: it has no GSLB endpoint',
    });
    // Other formats have no source.
    expect(
      (await t.request({ method: 'GET', url: `/api/v1/inputs/${source.id}`, token: t.roles.owner.token })).json(),
    ).toMatchObject({ source: null });

    // B pulls the source from A with a credential A checks with the source's edge key; live follows the source.
    const [atB] = await nodeInputs(b.token);
    expect(atB).toMatchObject({
      id: copy.id,
      format: 'Internode',
      origin: null,
      source: {
        inputId: source.id,
        name: source.name,
        live: false,
        nodeId: a.id,
        nodeName: 'node-a',
        hostname: 'node-a.example.com',
        rtmpPort: 1935,
      },
    });
    const [atA] = await nodeInputs(a.token);
    expect(atA?.id).toBe(source.id);
    expect(verifyEdgeCredential(atA?.edgeKey ?? '', source.id, atB?.source?.credential ?? '')).toBe(b.id);
    const reported = await t.report(a.token, [
      { id: randomUUID(), kind: 'stream-state', streamId: source.id, status: 'Ingestion' },
    ]);
    expect(reported.statusCode).toBe(200);
    expect((await nodeInputs(b.token))[0]?.source?.live).toBe(true);

    // B reports the Internode stream's pull as its push; its protocol is Internode.
    const live = await t.report(b.token, [
      {
        id: randomUUID(),
        kind: 'stream-state',
        streamId: copy.id,
        status: 'Ingestion',
        push: { protocol: 'Internode', remoteAddress: '192.0.2.1' },
      },
    ]);
    expect(live.statusCode).toBe(200);

    // A deleted source leaves the stream without one: nothing to pull.
    expect(
      (await t.request({ method: 'DELETE', url: `/api/v1/inputs/${source.id}`, token: t.roles.owner.token }))
        .statusCode,
    ).toBe(204);
    const orphan = (
      await t.request({ method: 'GET', url: `/api/v1/inputs/${copy.id}`, token: t.roles.owner.token })
    ).json() as StreamInput;
    expect(orphan).toMatchObject({ source: null, connection: null });
    expect((await nodeInputs(b.token))[0]?.source).toBeNull();
  });

  it("goes to the source's node when it is the only one the owner may use", async () => {
    const a = await nodeNamed('node-a');
    const source = await t.createInput();
    const copy = await t.createInput({ format: 'Internode', source: { streamNode: 'NODE-A', name: source.name } });
    expect(copy.nodeId).toBe(a.id);
  });

  it.each([
    [{ format: 'Internode' }, 'body.source', 'An Internode stream needs a source stream'],
    [
      { format: 'RTMP', source: { streamNode: 'node-a', name: 'x' } },
      'body.source',
      'Only an Internode stream has a source stream',
    ],
    [
      { format: 'Internode', source: { streamNode: '', name: 'x' } },
      'body.source.streamNode',
      'Stream node is required',
    ],
    [
      { format: 'Internode', source: { streamNode: 'node-a', name: ' ' } },
      'body.source.name',
      'Stream name is required',
    ],
    [{ format: 'Internode', source: { streamNode: 'node-a', name: 'x', extra: 1 } }, 'body.source', undefined],
    [
      { format: 'Internode', gslb: true, source: { streamNode: 'node-a', name: 'x' } },
      'body.gslb',
      'An Internode stream takes no push: it has no GSLB endpoint',
    ],
  ])('answers 400 for %j naming %s and creates nothing', async (payload, path, message) => {
    await world();
    const before = await listTotal();
    const response = await t.request({ method: 'POST', url: '/api/v1/inputs', token: t.roles.owner.token, payload });
    expect(response.statusCode).toBe(400);
    const errors = response.json().errors as { path: string; message: string }[];
    expect(errors.map((error) => error.path)).toContain(path);
    if (message) expect(errors).toContainEqual({ path, message });
    expect(await listTotal()).toBe(before);
  });

  it('answers 400 naming the field for an unknown source stream or the wrong node, and creates nothing', async () => {
    const { source } = await world();
    const before = await listTotal();
    const create = (body: object) =>
      t.request({ method: 'POST', url: '/api/v1/inputs', token: t.roles.owner.token, payload: body });

    const unknown = await create({ format: 'Internode', source: { streamNode: 'node-a', name: 'in+nothing' } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      code: 'UNKNOWN_SOURCE',
      message: 'Stream name: no stream named in+nothing is yours to pull',
    });

    const elsewhere = await create({ format: 'Internode', source: { streamNode: 'node-b', name: source.name } });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json()).toMatchObject({
      code: 'SOURCE_NOT_ON_NODE',
      message: `Stream node: stream ${source.name} is on node node-a, not on node-b`,
    });
    expect(await listTotal()).toBe(before);
  });
});
