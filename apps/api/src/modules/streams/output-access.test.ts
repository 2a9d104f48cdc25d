import { describe, expect, it } from 'vitest';
import {
  expectValidationError,
  type MatrixRow,
  ownerOnly,
  roleMatrixTests,
  useNodeStub,
  useTestApp,
} from '../../../test/helpers.js';

/** Issue 34: an output's own access policy (Public, Private, Signed), changed live and pushed to its node. */
const t = useTestApp({}, { roles: true });
const stub = useNodeStub();

/** A node the stub stands for (it answers only calls signed for this node's token); streams are placed on it. */
async function stubNode() {
  const node = await t.createNode(t.roles.admin, {
    connection: { protocol: 'HTTP', hostname: stub.hostname, port: stub.port },
  });
  stub.trust(node.token);
  return node;
}

const assigned = async (nodeToken: string) =>
  (await t.request({ method: 'GET', url: '/api/v1/node/inputs', token: nodeToken })).json()[0];
const owner = (method: 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.request({ method, url, token: t.roles.owner.token, ...(payload ? { payload } : {}) });
const refreshes = () => stub.calls.filter((call) => call.path === '/refresh');
/** The signing material a node reads for an input's Signed outputs: its account's, at the version its input names. */
async function signingOf(nodeToken: string) {
  const named = (await assigned(nodeToken)).signing;
  if (!named) return null;
  const read = await t.request({
    method: 'GET',
    url: `/api/v1/node/playback-signing/${named.accountId}`,
    token: nodeToken,
  });
  expect(read.statusCode, read.body).toBe(200);
  expect(read.json().version).toBe(named.version);
  return read.json();
}

describe('role matrix', () => {
  const rows: MatrixRow<{ output: string }>[] = [
    {
      name: 'PUT /outputs/{id}',
      call: ({ output }) => ['PUT', `/api/v1/outputs/${output}`, { access: 'Signed' }],
      expected: ownerOnly(200),
    },
  ];
  roleMatrixTests(rows, {
    roles: () => t.roles,
    subject: async () => {
      const input = await t.createInput();
      return { output: (await t.createOutput({ streamId: input.id })).id };
    },
  });
});

describe('an output access policy', () => {
  it('is Public or Private after the stream by default, or what the creation says', async () => {
    const open = await t.createInput();
    const closed = await t.createInput({ access: 'Private' });
    expect(await t.createOutput({ streamId: open.id })).toMatchObject({
      access: 'Public',
      viewer: { accessToken: null },
    });
    expect(await t.createOutput({ streamId: closed.id })).toMatchObject({
      access: 'Private',
      viewer: { accessToken: expect.stringMatching(/^[\w-]{32}$/) },
    });
    expect(await t.createOutput({ streamId: open.id, access: 'Signed' })).toMatchObject({ access: 'Signed' });
    expect(await t.createOutput({ streamId: closed.id, access: 'Public' })).toMatchObject({
      access: 'Public',
      viewer: { accessToken: null },
    });
  });

  it('changes live: audited, pushed to the node, which gets the account keys and revoked token ids', async () => {
    const node = await stubNode();
    const es256 = (await owner('POST', '/api/v1/playback-keys', { name: 'shop', algorithm: 'ES256' })).json();
    const hs256 = (await owner('POST', '/api/v1/playback-keys', { name: 'simple', algorithm: 'HS256' })).json();
    const input = await t.createInput({ access: 'Private' });
    const output = await t.createOutput({ streamId: input.id, format: 'HLS' });
    expect(await signingOf(node.token)).toBeNull();

    const changed = await owner('PUT', `/api/v1/outputs/${output.id}`, { access: 'Signed' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ id: output.id, access: 'Signed' });
    const [entry] = await t.auditLog(1);
    expect(entry).toMatchObject({ action: 'output.update', target_id: output.id });
    await expect.poll(refreshes).toEqual([{ method: 'POST', path: '/refresh', body: { mode: 'Streams' } }]);
    const signed = await assigned(node.token);
    expect(signed.outputs[0]).toMatchObject({ id: output.id, access: 'Signed' });
    expect(signed.signing).toEqual({ accountId: t.roles.owner.id, version: expect.any(String) });
    const material = await signingOf(node.token);
    expect(material.keys).toEqual(
      expect.arrayContaining([
        { kid: es256.kid, algorithm: 'ES256', publicJwk: es256.publicJwk, secret: null, revoked: false },
        { kid: hs256.kid, algorithm: 'HS256', publicJwk: null, secret: hs256.secret, revoked: false },
      ]),
    );
    expect(material.revokedTokenIds).toEqual([]);

    // Revocations are pushed too, and the node reads them with the keys.
    expect((await owner('POST', '/api/v1/playback-tokens/revocations', { jti: 'ticket-1' })).statusCode).toBe(201);
    await expect.poll(() => refreshes().length).toBe(2);
    const revoked = await signingOf(node.token);
    expect(revoked.revokedTokenIds).toEqual(['ticket-1']);
    expect(revoked.version).not.toBe(material.version);
    expect((await owner('DELETE', `/api/v1/playback-keys/${es256.id}`)).statusCode).toBe(204);
    await expect.poll(() => refreshes().length).toBe(3);
    expect((await signingOf(node.token)).keys).toContainEqual(
      expect.objectContaining({ kid: es256.kid, revoked: true }),
    );

    // Back to Private: the static token it had plays again; no keys go to the node any more.
    const back = await owner('PUT', `/api/v1/outputs/${output.id}`, { access: 'Private' });
    expect(back.json()).toMatchObject({ access: 'Private', viewer: { accessToken: output.viewer.accessToken } });
    expect(await signingOf(node.token)).toBeNull();
  });

  it('reaches the edge node that serves a Signed output: its revocations are pushed there too', async () => {
    const origin = await t.createNode(t.roles.admin, {
      name: 'origin',
      connection: { protocol: 'HTTP', hostname: 'origin.invalid', port: 4242 },
    });
    const edge = await stubNode();
    await t.createNodeGroup(t.roles.admin, 'Outgoing', null, [edge.id]);
    const input = await t.createInput();
    expect(input.nodeId).toBe(origin.id);
    const output = await t.createOutput({ streamId: input.id, format: 'HLS', access: 'Signed' });
    expect(output.node?.id).toBe(edge.id);
    stub.calls.length = 0;
    // Only the edge is the stub (the origin's address does not answer): a refresh it hears was pushed to the edge.
    expect((await owner('POST', '/api/v1/playback-tokens/revocations', { jti: 'edge-ticket' })).statusCode).toBe(201);
    await expect.poll(refreshes).toEqual([{ method: 'POST', path: '/refresh', body: { mode: 'Streams' } }]);
    expect((await signingOf(edge.token)).revokedTokenIds).toEqual(['edge-ticket']);
  });

  it("gives an account's signing material only to a node that serves one of its streams, and to no person", async () => {
    const node = await stubNode();
    const other = await t.createNode(t.roles.admin, {
      name: 'elsewhere',
      connection: { protocol: 'HTTP', hostname: 'elsewhere.invalid', port: 4242 },
    });
    const input = await t.createInput();
    expect(input.nodeId).toBe(node.id);
    await t.createOutput({ streamId: input.id, format: 'HLS', access: 'Signed' });
    const url = `/api/v1/node/playback-signing/${t.roles.owner.id}`;
    expect((await t.request({ method: 'GET', url, token: node.token })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url, token: other.token })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url, token: t.roles.owner.token })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url, token: t.roles.admin.token })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url })).statusCode).toBe(401);
    expect(
      (await t.request({ method: 'GET', url: '/api/v1/node/playback-signing/nope', token: node.token })).statusCode,
    ).toBe(400);
  });

  it('tells each node serving a stream the sessions of capped stream-wide tokens on its other nodes', async () => {
    const at = (name: string, latitude: number, longitude: number) =>
      t.createNode(t.roles.admin, {
        name,
        location: { code: 'EU', geo: { latitude, longitude } },
        connection: { protocol: 'HTTP', hostname: `${name}.invalid`, port: 4242 },
      });
    await at('origin', 50.1, 8.68);
    const paris = await at('paris', 48.8, 2.35);
    const madrid = await at('madrid', 40.4, -3.7);
    await t.createNodeGroup(t.roles.admin, 'Outgoing', null, [paris.id, madrid.id]);
    const input = await t.createInput();
    const near = (latitude: number, longitude: number) => ({ ipAddress: '', geoLocation: { latitude, longitude } });
    const signed = { streamId: input.id, format: 'HLS', access: 'Signed' };
    const inParis = await t.createOutput({ ...signed, viewer: near(48.9, 2.3) });
    const inMadrid = await t.createOutput({ ...signed, viewer: near(40.5, -3.6) });
    expect([inParis.node?.id, inMadrid.node?.id]).toEqual([paris.id, madrid.id]);

    // Paris reports two viewers: one of a capped stream-wide token, one of no such token.
    const tokenId = 'A'.repeat(22);
    const startedAt = new Date().toISOString();
    const session = (id: string, extra: object = {}) => ({
      id,
      ipAddress: '203.0.113.9',
      startedAt,
      bytes: 1,
      ...extra,
    });
    const reported = await t.report(paris.token, [
      {
        id: 'sessions-1',
        kind: 'stream-state',
        streamId: input.id,
        outputs: [{ outputId: inParis.id, sessions: [session('hls-a', { tokenId }), session('hls-b')] }],
      },
    ]);
    expect(reported.statusCode, reported.body).toBe(200);
    expect((await assigned(madrid.token)).tokenSessions).toEqual([{ tokenId, sessionId: 'hls-a', startedAt }]);
    // Paris counts its own sessions itself.
    expect((await assigned(paris.token)).tokenSessions).toBeUndefined();
    // A token id is a digest as nodes make it: anything else is refused, nothing stored.
    const forged = await t.report(paris.token, [
      {
        id: 'sessions-2',
        kind: 'stream-state',
        streamId: input.id,
        outputs: [{ outputId: inParis.id, sessions: [session('hls-c', { tokenId: 'not a digest' })] }],
      },
    ]);
    expect(forged.statusCode).toBe(400);
    expect((await assigned(madrid.token)).tokenSessions).toEqual([{ tokenId, sessionId: 'hls-a', startedAt }]);
  });

  it('gives a Public output made Private a viewer token', async () => {
    const input = await t.createInput();
    const output = await t.createOutput({ streamId: input.id });
    const changed = await owner('PUT', `/api/v1/outputs/${output.id}`, { access: 'Private' });
    expect(changed.json().viewer.accessToken).toMatch(/^[\w-]{32}$/);
  });

  it('refuses an unknown or missing policy with a 400 naming the field, changing nothing', async () => {
    const input = await t.createInput();
    const output = await t.createOutput({ streamId: input.id });
    expectValidationError(
      await owner('PUT', `/api/v1/outputs/${output.id}`, { access: 'Secret' }),
      'body.access',
      'Access must be Public, Private or Signed',
    );
    expectValidationError(await owner('PUT', `/api/v1/outputs/${output.id}`, {}), 'body', 'Nothing to update');
    expectValidationError(
      await owner('POST', '/api/v1/outputs', { streamId: input.id, access: 'signed' }),
      'body.access',
      'Access must be Public, Private or Signed',
    );
    const [row] = await t.database.db.selectFrom('outputs').select('access').where('id', '=', output.id).execute();
    expect(row?.access).toBe('Public');
  });
});

/** Issue 36: an HLS output's packaging, Standard (nginx-rtmp's TS) or Low (LL-HLS), chosen at creation or live. */
describe('an HLS output latency', () => {
  it('is Low by default (a rewind window allowed), null for other formats, or what the creation says; the node is told', async () => {
    const node = await stubNode();
    const input = await t.createInput();
    const low = await t.createOutput({ streamId: input.id, format: 'HLS' });
    expect(low).toMatchObject({ hlsLatency: 'Low', dvrWindowMinutes: 0 });
    expect(await t.createOutput({ streamId: input.id, format: 'RTMP' })).toMatchObject({ hlsLatency: null });
    const standard = await t.createOutput({ streamId: input.id, format: 'HLS', hlsLatency: 'Standard' });
    expect(standard).toMatchObject({ hlsLatency: 'Standard' });
    const rewind = await t.createOutput({ streamId: input.id, format: 'HLS', dvrWindowMinutes: 5 });
    expect(rewind).toMatchObject({ hlsLatency: 'Low', dvrWindowMinutes: 5 });
    const listed = (await assigned(node.token)).outputs;
    expect(listed.find((entry: { id: string }) => entry.id === low.id)).toMatchObject({ hlsLatency: 'Low' });
    expect(listed.find((entry: { id: string }) => entry.id === standard.id)).toMatchObject({ hlsLatency: 'Standard' });
    expect(listed.find((entry: { format: string }) => entry.format === 'RTMP')).not.toHaveProperty('hlsLatency');
  });

  it('changes live: audited, the node is told and reads it (its outputs version changes)', async () => {
    const node = await stubNode();
    const input = await t.createInput();
    const output = await t.createOutput({ streamId: input.id, format: 'HLS', hlsLatency: 'Standard' });
    const version = (await assigned(node.token)).versions.outputs;
    const changed = await owner('PUT', `/api/v1/outputs/${output.id}`, { hlsLatency: 'Low' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ access: 'Public', hlsLatency: 'Low' });
    const [entry] = await t.auditLog(1);
    expect(entry).toMatchObject({ action: 'output.update', target_id: output.id });
    await expect.poll(refreshes).toEqual([{ method: 'POST', path: '/refresh', body: { mode: 'Streams' } }]);
    const read = await assigned(node.token);
    expect(read.outputs[0]).toMatchObject({ id: output.id, hlsLatency: 'Low' });
    expect(read.versions.outputs).not.toBe(version);
  });

  it('keeps a rewind window (DVR) only for a Low latency output: set, changed, told to the node, refused otherwise', async () => {
    const node = await stubNode();
    const input = await t.createInput();
    const low = await t.createOutput({ streamId: input.id, format: 'HLS', hlsLatency: 'Low', dvrWindowMinutes: 30 });
    expect(low).toMatchObject({ hlsLatency: 'Low', dvrWindowMinutes: 30 });
    expect((await assigned(node.token)).outputs[0]).toMatchObject({ id: low.id, dvrWindowMinutes: 30 });
    const longer = await owner('PUT', `/api/v1/outputs/${low.id}`, { dvrWindowMinutes: 240 });
    expect(longer.json()).toMatchObject({ dvrWindowMinutes: 240 });
    // Back to Standard: nginx-rtmp's playlist has no rewind, so the window goes with it.
    const standard = await owner('PUT', `/api/v1/outputs/${low.id}`, { hlsLatency: 'Standard' });
    expect(standard.json()).toMatchObject({ hlsLatency: 'Standard', dvrWindowMinutes: 0 });

    const rule = 'A DVR window needs HLS latency Low (the node packages the stream)';
    expectValidationError(
      await owner('PUT', `/api/v1/outputs/${low.id}`, { dvrWindowMinutes: 5 }),
      'body.dvrWindowMinutes',
      rule,
    );
    expectValidationError(
      await owner('POST', '/api/v1/outputs', {
        streamId: input.id,
        format: 'HLS',
        hlsLatency: 'Standard',
        dvrWindowMinutes: 5,
      }),
      'body.dvrWindowMinutes',
      rule,
    );
    expectValidationError(
      await owner('PUT', `/api/v1/outputs/${low.id}`, { hlsLatency: 'Low', dvrWindowMinutes: 241 }),
      'body.dvrWindowMinutes',
      'DVR window must be at most 240 minutes',
    );
    expectValidationError(
      await owner('PUT', `/api/v1/outputs/${low.id}`, { hlsLatency: 'Low', dvrWindowMinutes: 1.5 }),
      'body.dvrWindowMinutes',
      'DVR window must be a whole number of minutes',
    );
    const [row] = await t.database.db
      .selectFrom('outputs')
      .select(['hls_latency', 'dvr_window_minutes'])
      .where('id', '=', low.id)
      .execute();
    expect(row).toEqual({ hls_latency: 'Standard', dvr_window_minutes: 0 });
  });

  it('refuses an unknown latency, or one for an output that is not HLS, with a 400 naming the field', async () => {
    const input = await t.createInput();
    const hls = await t.createOutput({ streamId: input.id, format: 'HLS' });
    const rtmp = await t.createOutput({ streamId: input.id, format: 'RTMP' });
    const rule = 'HLS latency must be Standard or Low';
    expectValidationError(
      await owner('PUT', `/api/v1/outputs/${hls.id}`, { hlsLatency: 'Ultra' }),
      'body.hlsLatency',
      rule,
    );
    expectValidationError(
      await owner('POST', '/api/v1/outputs', { streamId: input.id, format: 'RTMP', hlsLatency: 'Low' }),
      'body.hlsLatency',
      'HLS latency is only for HLS outputs',
    );
    expectValidationError(
      await owner('PUT', `/api/v1/outputs/${rtmp.id}`, { hlsLatency: 'Low' }),
      'body.hlsLatency',
      'HLS latency is only for HLS outputs',
    );
    const rows = await t.database.db
      .selectFrom('outputs')
      .select(['id', 'hls_latency'])
      .where('input_id', '=', input.id)
      .execute();
    expect(Object.fromEntries(rows.map((row) => [row.id, row.hls_latency]))).toEqual({
      [hls.id]: 'Low',
      [rtmp.id]: null,
    });
  });
});
