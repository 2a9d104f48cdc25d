import { API_BASE, type AssignedInput, type RotatedAccessToken } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import { concurrently } from '../../../test/concurrency.js';
import { databaseState } from '../../../test/database-state.js';
import {
  expectValidationError,
  type MatrixRow,
  ownerOnly,
  roleMatrixTests,
  TestClock,
  useNodeStub,
  useTestApp,
} from '../../../test/helpers.js';
import { PUBLIC_OUTPUT_NO_TOKEN, PUBLIC_STREAM_NO_TOKEN } from './token-rotation.js';

const clock = new TestClock();
const stub = useNodeStub();
const t = useTestApp({ clock }, { roles: true });

const MINUTE = 60_000;
const inputUrl = (id: string) => `${API_BASE}/inputs/${id}/access-token/rotate`;
const outputUrl = (id: string) => `${API_BASE}/outputs/${id}/access-token/rotate`;

/** A node answered by the stub (so the API can tell it of a rotation), and a Private stream on it with an output. */
async function privateStreamOnNode() {
  const node = await t.createNode(t.roles.admin, {
    connection: { protocol: 'HTTP', hostname: stub.hostname, port: stub.port },
  });
  stub.trust(node.token);
  const input = await t.createInput({ access: 'Private', accessToken: 'ingest-1', format: 'RTMP' });
  expect(input.nodeId).toBe(node.id);
  const output = await t.createOutput({ streamId: input.id, format: 'HLS' });
  return { node, input, output, viewerToken: output.viewer.accessToken ?? '' };
}

const rotate = (url: string, payload: object = {}, token = t.roles.owner.token) =>
  t.request({ method: 'POST', url, token, payload });

/** What the stream's node is given of it now. */
async function assigned(nodeToken: string, streamId: string): Promise<AssignedInput | undefined> {
  const response = await t.request({ method: 'GET', url: `${API_BASE}/node/inputs`, token: nodeToken });
  return (response.json() as AssignedInput[]).find((input) => input.id === streamId);
}

describe('role matrix', () => {
  const rows: MatrixRow<{ input: string; output: string }>[] = [
    {
      name: 'POST /inputs/{id}/access-token/rotate',
      call: ({ input }) => ['POST', inputUrl(input), { overlapMinutes: 5 }],
      expected: ownerOnly(200),
    },
    {
      name: 'POST /outputs/{id}/access-token/rotate',
      call: ({ output }) => ['POST', outputUrl(output), { overlapMinutes: 5 }],
      expected: ownerOnly(200),
    },
  ];
  roleMatrixTests(rows, {
    roles: () => t.roles,
    subject: async () => {
      const input = await t.createInput({ access: 'Private' });
      const output = await t.createOutput({ streamId: input.id });
      return { input: input.id, output: output.id };
    },
    check: (response) => {
      if (response.statusCode === 200) expect(response.json().accessToken).toMatch(/^[\w-]{32}$/);
      else expect(response.body).not.toMatch(/accessToken/);
    },
  });

  it('refuses a read-scoped API key (the answer is a secret), a write key rotates', async () => {
    const input = await t.createInput({ access: 'Private' });
    const output = await t.createOutput({ streamId: input.id });
    const keyOf = async (scope: 'read' | 'write') => {
      const created = await t.request({
        method: 'POST',
        url: `${API_BASE}/api-keys`,
        token: t.roles.owner.token,
        payload: { name: `ci-${scope}`, scope },
      });
      return created.json().key as string;
    };
    const readKey = await keyOf('read');
    const before = await databaseState(t.database.db);
    for (const url of [inputUrl(input.id), outputUrl(output.id)]) {
      const refused = await rotate(url, {}, readKey);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json().code).toBe('READ_ONLY_KEY');
    }
    expect(await databaseState(t.database.db)).toEqual(before);
    const writeKey = await keyOf('write');
    for (const url of [inputUrl(input.id), outputUrl(output.id)])
      expect((await rotate(url, {}, writeKey)).statusCode).toBe(200);
  });
});

describe('rotating the ingest token', () => {
  it("answers the new token once; the node is told at once and given both tokens with the window's end", async () => {
    const { node, input } = await privateStreamOnNode();
    const now = clock.now();
    const response = await rotate(inputUrl(input.id), { overlapMinutes: 15 });
    expect(response.statusCode, response.body).toBe(200);
    const rotated = response.json() as RotatedAccessToken;
    expect(rotated.accessToken).toMatch(/^[\w-]{32}$/);
    expect(Date.parse(rotated.previousValidUntil ?? '') - Date.parse(rotated.rotatedAt)).toBe(15 * MINUTE);
    expect(Date.parse(rotated.rotatedAt)).toBeGreaterThanOrEqual(now.getTime());

    // The node was told at once (it re-reads its inputs), and reads both tokens with the window's end.
    expect(stub.calls).toContainEqual({ method: 'POST', path: '/refresh', body: { mode: 'Streams' } });
    expect(await assigned(node.token, input.id)).toMatchObject({
      accessToken: rotated.accessToken,
      previousAccessToken: { token: 'ingest-1', expiresAt: rotated.previousValidUntil },
    });
    const shown = (
      await t.request({ method: 'GET', url: `${API_BASE}/inputs/${input.id}`, token: t.roles.owner.token })
    ).json();
    expect(shown).toMatchObject({ accessToken: rotated.accessToken, accessTokenRotatedAt: rotated.rotatedAt });

    // Audited with the window, never the tokens.
    const [entry] = await t.auditLog(1);
    expect(entry).toMatchObject({ action: 'input.access-token.rotate', target_id: input.id });
    expect(JSON.stringify(entry)).not.toContain(rotated.accessToken);
    expect(JSON.stringify(entry)).not.toContain('ingest-1');

    // The window's end is the node's to judge (an HLS session admitted before plays on): the old token stays
    // with it until the next rotation replaces it.
    clock.advance(15 * MINUTE + 1000);
    expect((await assigned(node.token, input.id))?.previousAccessToken?.token).toBe('ingest-1');
  });

  it('with an overlap of 0 the old token stops at once; an empty body takes the default of 10 minutes', async () => {
    const { node, input } = await privateStreamOnNode();
    const at0 = (await rotate(inputUrl(input.id), { overlapMinutes: 0 })).json() as RotatedAccessToken;
    expect(at0.previousValidUntil).toBeNull();
    expect((await assigned(node.token, input.id))?.previousAccessToken).toBeNull();
    const byDefault = (await rotate(inputUrl(input.id))).json() as RotatedAccessToken;
    expect(Date.parse(byDefault.previousValidUntil ?? '') - Date.parse(byDefault.rotatedAt)).toBe(10 * MINUTE);
    expect((await assigned(node.token, input.id))?.previousAccessToken?.token).toBe(at0.accessToken);
  });

  it('two rotations at once queue: the second replaces the first one, so two tokens are valid, never three', async () => {
    const { node, input } = await privateStreamOnNode();
    const responses = await concurrently(2, () => rotate(inputUrl(input.id), { overlapMinutes: 30 }));
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200]);
    const issued = responses.map((response) => (response.json() as RotatedAccessToken).accessToken);
    const given = await assigned(node.token, input.id);
    // One was replaced by the other: the current token and the previous one are the two issued, ingest-1 is gone.
    expect([given?.accessToken, given?.previousAccessToken?.token].sort()).toEqual([...issued].sort());
  });

  it('rotates all the same when the node cannot be told (it reads the new token at its next poll)', async () => {
    const { node, input } = await privateStreamOnNode();
    stub.set({ status: 500 });
    const response = await rotate(inputUrl(input.id), { overlapMinutes: 1 });
    expect(response.statusCode, response.body).toBe(200);
    expect(stub.calls).toContainEqual({ method: 'POST', path: '/refresh', body: { mode: 'Streams' } });
    expect((await assigned(node.token, input.id))?.accessToken).toBe(response.json().accessToken);
  });

  it('refuses a Public stream (409) and a bad overlap (400 naming the field), changing nothing', async () => {
    const open = await t.createInput({ access: 'Public' });
    const { input } = await privateStreamOnNode();
    const before = await databaseState(t.database.db);
    const refused = await rotate(inputUrl(open.id));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'NO_ACCESS_TOKEN', message: PUBLIC_STREAM_NO_TOKEN });
    for (const [payload, message] of [
      [{ overlapMinutes: -1 }, 'Overlap must be at least 0 minutes'],
      [{ overlapMinutes: 1441 }, 'Overlap must be at most 1440 minutes (24 hours)'],
      [{ overlapMinutes: '10' }, 'Overlap must be a number of minutes'],
    ] as const) {
      expectValidationError(await rotate(inputUrl(input.id), payload), 'body.overlapMinutes', message);
    }
    expect((await rotate(inputUrl(input.id), { overlapMinutes: 5, token: 'mine' })).statusCode).toBe(400);
    expect(await databaseState(t.database.db)).toEqual(before);
    expect(stub.calls).toEqual([]);
  });
});

describe("rotating an output's viewer token", () => {
  it("answers the new token; the node serving it is told at once and given both tokens with the window's end", async () => {
    const { node, input, output, viewerToken } = await privateStreamOnNode();
    const response = await rotate(outputUrl(output.id), { overlapMinutes: 1 });
    expect(response.statusCode, response.body).toBe(200);
    const rotated = response.json() as RotatedAccessToken;
    expect(stub.calls).toContainEqual({ method: 'POST', path: '/refresh', body: { mode: 'Streams' } });
    expect((await assigned(node.token, input.id))?.outputs[0]).toMatchObject({
      accessToken: rotated.accessToken,
      previousAccessToken: { token: viewerToken, expiresAt: rotated.previousValidUntil },
    });
    const listed = await t.request({
      method: 'GET',
      url: `${API_BASE}/outputs?streamId=${input.id}`,
      token: t.roles.owner.token,
    });
    expect(listed.json()[0].viewer).toMatchObject({
      accessToken: rotated.accessToken,
      accessTokenRotatedAt: rotated.rotatedAt,
    });
    const [entry] = await t.auditLog(1);
    expect(entry).toMatchObject({ action: 'output.access-token.rotate', target_id: output.id });
    expect(JSON.stringify(entry)).not.toContain(rotated.accessToken);
  });

  it('refuses an output of a Public stream (409), changing nothing', async () => {
    const open = await t.createInput({ access: 'Public' });
    const output = await t.createOutput({ streamId: open.id });
    const before = await databaseState(t.database.db);
    const refused = await rotate(outputUrl(output.id));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'NO_ACCESS_TOKEN', message: PUBLIC_OUTPUT_NO_TOKEN });
    expect(await databaseState(t.database.db)).toEqual(before);
  });
});
