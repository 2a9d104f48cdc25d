import { randomUUID } from 'node:crypto';
import { DEFAULT_ADJUSTABLE_TRACKS, outputModeOfName, StreamInputSummary } from '@streamcloud/contract';
import { verifyPreviewCredential } from '@streamcloud/contract/preview-credential';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type MatrixRow, ownerOnly, roleMatrixTests, signedIn, useTestApp } from '../../../test/helpers.js';
import { compiledSerializerCompiler } from '../../lib/response-serializer.js';

const t = useTestApp({}, { roles: true });
const setStatus = async (nodeToken: string, streamId: string, status: string, message?: object) => {
  const response = await t.report(nodeToken, [
    { id: randomUUID(), kind: 'stream-state', streamId, status, ...(message ? { message } : {}) },
  ]);
  expect(response.statusCode).toBe(200);
};

describe('role matrix', () => {
  const rows: MatrixRow<{ input: string; output: string }>[] = [
    {
      name: 'GET /inputs',
      call: () => ['GET', '/api/v1/inputs'],
      expected: signedIn(200),
    },
    {
      name: 'POST /inputs',
      call: () => ['POST', '/api/v1/inputs', { caption: 'x' }],
      expected: signedIn(201),
    },
    {
      name: 'GET /inputs/{id}',
      call: ({ input }) => ['GET', `/api/v1/inputs/${input}`],
      expected: ownerOnly(200),
    },
    {
      name: 'PUT /inputs/{id}',
      call: ({ input }) => ['PUT', `/api/v1/inputs/${input}`, { caption: 'renamed' }],
      expected: ownerOnly(200),
    },
    {
      name: 'DELETE /inputs/{id}',
      call: ({ input }) => ['DELETE', `/api/v1/inputs/${input}`],
      expected: ownerOnly(204),
    },
    {
      name: 'POST /inputs/{id}/preview',
      call: ({ input }) => ['POST', `/api/v1/inputs/${input}/preview`],
      expected: ownerOnly(200),
    },
    {
      name: 'POST /outputs',
      call: ({ input }) => ['POST', '/api/v1/outputs', { streamId: input }],
      expected: ownerOnly(201),
    },
    {
      name: 'GET /outputs',
      call: ({ input }) => ['GET', `/api/v1/outputs?streamId=${input}`],
      expected: ownerOnly(200),
    },
    {
      name: 'DELETE /outputs/{id}/sessions',
      call: ({ output }) => ['DELETE', `/api/v1/outputs/${output}/sessions`],
      expected: ownerOnly(204),
    },
    {
      name: 'DELETE /outputs/{id}',
      call: ({ output }) => ['DELETE', `/api/v1/outputs/${output}`],
      expected: ownerOnly(204),
    },
    {
      name: 'GET /info/location',
      call: () => ['GET', '/api/v1/info/location?ipAddress=81.2.69.160'],
      expected: signedIn(200),
    },
    {
      name: 'GET /info/stream/{id}/incoming',
      call: ({ input }) => ['GET', `/api/v1/info/stream/${input}/incoming`],
      expected: ownerOnly(200),
    },
    {
      name: 'POST /gslb/input',
      call: ({ input }) => ['POST', '/api/v1/gslb/input', { streamId: input }],
      expected: ownerOnly(201),
    },
    {
      name: 'GET /gslb/input/stream/{id}',
      call: ({ input }) => ['GET', `/api/v1/gslb/input/stream/${input}`],
      expected: signedIn(404),
    },
  ];
  roleMatrixTests(rows, {
    roles: () => t.roles,
    subject: async () => {
      const input = await t.createInput();
      const output = await t.request({
        method: 'POST',
        url: '/api/v1/outputs',
        token: t.roles.owner.token,
        payload: { streamId: input.id },
      });
      return { input: input.id, output: output.json().id };
    },
  });
});

describe("role matrix: a Private stream's playback token", () => {
  // The output's token lets anyone watch: it is shown to the stream's owner and ADMIN only, on the outputs list.
  const rows: MatrixRow<{ input: string; output: string; token: string }>[] = [
    {
      name: 'GET /outputs',
      call: ({ input }) => ['GET', `/api/v1/outputs?streamId=${input}`],
      expected: ownerOnly(200),
    },
    { name: 'GET /inputs', call: () => ['GET', '/api/v1/inputs'], expected: signedIn(200) },
    { name: 'GET /inputs/{id}', call: ({ input }) => ['GET', `/api/v1/inputs/${input}`], expected: ownerOnly(200) },
  ];
  roleMatrixTests(rows, {
    roles: () => t.roles,
    subject: async () => {
      const input = await t.createInput({ access: 'Private' });
      const output = await t.createOutput({ streamId: input.id, format: 'HLS' });
      const token = output.viewer.accessToken ?? '';
      expect(token).toMatch(/^[\w-]{32}$/);
      return { input: input.id, output: output.id, token };
    },
    check: (response, caller, { output, token }) => {
      // Only an outputs list (items with a viewer) may carry it, and only in a 200 (the owner's and ADMIN's).
      const body = response.statusCode === 200 ? (response.json() as { viewer?: unknown }[]) : null;
      const outputsList = Array.isArray(body) && body[0]?.viewer !== undefined;
      if (outputsList && response.statusCode === 200) {
        expect(response.json()).toEqual([
          expect.objectContaining({ id: output, viewer: expect.objectContaining({ accessToken: token }) }),
        ]);
      } else {
        expect(response.body, caller).not.toContain(token);
      }
    },
  });
});

describe('POST /inputs', () => {
  it('creates with the defaults: WebRTC, adjustable transcoding, Public, Pending without a node', async () => {
    const input = await t.createInput();
    expect(input).toMatchObject({
      ownerId: t.roles.owner.id,
      format: 'WebRTC',
      access: 'Public',
      accessToken: null,
      outputMode: 'AdjustableTranscode',
      status: 'Pending',
      connection: null,
      nodeId: null,
      gslb: false,
      output: { version: 2, passthrough: false, tracks: DEFAULT_ADJUSTABLE_TRACKS },
    });
    expect(input.name).toMatch(/^in\+[0-9a-f-]{36}$/);
    expect(input.statusMessages[0]).toMatchObject({
      level: 'warning',
      text: 'No node is available: the stream will be assigned as soon as one is',
    });
  });

  it('assigns an enabled and opened node and builds the connection per format', async () => {
    const node = await t.createNode(t.roles.admin, {
      connection: { protocol: 'HTTP', hostname: 'edge.example.com', port: 4242 },
    });
    await t.createNode(t.roles.admin, { enabled: false });
    const expectations: Array<[string, object]> = [
      [
        'WebRTC',
        { signallingUri: expect.stringMatching(/^http:\/\/edge\.example\.com:4242\/whip\/in%2B[0-9a-f-]{36}$/) },
      ],
      ['RTMP', { uri: expect.stringMatching(/^rtmp:\/\/edge\.example\.com:1935\/live\/in%2B/) }],
      ['SRT', { uri: expect.stringMatching(/^srt:\/\/edge\.example\.com:9710\?streamid=in%2B/) }],
    ];
    for (const [format, connection] of expectations) {
      const input = await t.createInput({ format });
      expect(input.status).toBe('Idle');
      expect(input.nodeId).toBe(node.id);
      expect(input.connection).toEqual(connection);
    }
  });

  it('picks the node nearest the streamer', async () => {
    await t.createNode(t.roles.admin, {
      name: 'ny',
      location: { code: 'NA', geo: { latitude: 40.7, longitude: -74 } },
    });
    const london = await t.createNode(t.roles.admin, {
      name: 'ldn',
      location: { code: 'EU', geo: { latitude: 51.5, longitude: -0.1 } },
    });
    const input = await t.createInput({ streamer: { ipAddress: '81.2.69.160' } });
    expect(input.nodeId).toBe(london.id);
    expect(input.streamer).toEqual({
      ipAddress: '81.2.69.160',
      geoLocation: { latitude: expect.any(Number), longitude: expect.any(Number) },
    });
  });

  it('names passthrough streams so the parser reads them as passthrough', async () => {
    const input = await t.createInput({ output: { passthrough: true } });
    expect(input.outputMode).toBe('Passthrough');
    expect(input.name).toMatch(/^pt\+/);
    expect(input.output.tracks).toEqual([]);
  });

  it('generates tokens for private modes and keeps a given one only for Private', async () => {
    const ingoing = await t.createInput({ access: 'PrivateIngoing' });
    expect(ingoing.accessToken).toMatch(/^[\w-]{32}$/);
    const given = await t.createInput({ access: 'Private', accessToken: 'my-token.1' });
    expect(given.accessToken).toBe('my-token.1');
    const generated = await t.createInput({ access: 'Private', accessToken: '' });
    expect(generated.accessToken).toMatch(/^[\w-]{32}$/);
    const publicInput = await t.createInput({ access: 'Public', accessToken: 'ignored' });
    expect(publicInput.accessToken).toBeNull();
  });

  it('lets an ADMIN create for another account, not a USER', async () => {
    expect((await t.createInput({ ownerId: t.roles.other.id }, t.roles.admin.token)).ownerId).toBe(t.roles.other.id);
    const refused = await t.request({
      method: 'POST',
      url: '/api/v1/inputs',
      token: t.roles.owner.token,
      payload: { ownerId: t.roles.other.id },
    });
    expect(refused.statusCode).toBe(403);
  });

  it.each([
    [{ format: 'HLS' }, 'body.format'],
    [{ access: 'Secret' }, 'body.access'],
    [{ caption: 'c'.repeat(256) }, 'body.caption'],
    [{ callbackUri: 'ftp://x' }, 'body.callbackUri'],
    [{ callbackUri: `https://x.example/${'a'.repeat(260)}` }, 'body.callbackUri'],
    [{ streamer: { ipAddress: '999.1.1.1' } }, 'body.streamer.ipAddress'],
    [{ accessToken: 'has spaces' }, 'body.accessToken'],
    [{ output: { version: 3, passthrough: false } }, 'body.output.version'],
    [{ surprise: true }, 'body'],
  ])('answers 400 for %j and creates nothing', async (payload, path) => {
    const response = await t.request({ method: 'POST', url: '/api/v1/inputs', token: t.roles.owner.token, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.map((e: { path: string }) => e.path)).toContain(path);
    if (path === 'body.format') {
      expect(response.json().errors).toContainEqual({
        path: 'body.format',
        message: 'Format must be WebRTC, RTMP, RTSP, SRT or Internode: the media nodes take no other stream',
      });
    }
    const list = await t.request({ method: 'GET', url: '/api/v1/inputs', token: t.roles.owner.token });
    expect(list.headers['x-total-count']).toBe('0');
  });
});

/** PUT /inputs/{id} {caption} as `token` (the owner's unless told). */
const rename = async (id: string, caption: string, token = t.roles.owner.token) =>
  expect(
    (await t.request({ method: 'PUT', url: `/api/v1/inputs/${id}`, token, payload: { caption } })).statusCode,
  ).toBe(200);

describe('GET /inputs/{id}', () => {
  it('answers in one query once the session is cached, then from memory until a write: the access check is part of the read', async () => {
    const stream = await t.createInput({ caption: 'mine' });
    const get = (token: string | undefined) => t.request({ method: 'GET', url: `/api/v1/inputs/${stream.id}`, token });
    expect((await get(t.roles.owner.token)).statusCode).toBe(200);
    // Another stream's creation is a write: what was kept goes.
    await t.createInput({ caption: 'another' });
    let answer: Awaited<ReturnType<typeof get>> | undefined;
    expect(await t.queryCount(async () => (answer = await get(t.roles.owner.token)))).toBe(1);
    expect(answer?.json()).toMatchObject({ id: stream.id, caption: 'mine' });
    // The database's notice of the creation, heard late on a loaded machine, may drop the first answer kept once.
    await expect
      .poll(() => t.queryCount(async () => expect((await get(t.roles.owner.token)).body).toBe(answer?.body)))
      .toBe(0);
    expect((await get(t.roles.other.token)).statusCode).toBe(404);
    await t.createInput({ caption: 'a third' });
    expect(
      await t.queryCount(async () => expect((await get(t.roles.other.token)).statusCode).toBe(404)),
    ).toBeGreaterThanOrEqual(1);
    await expect
      .poll(() => t.queryCount(async () => expect((await get(t.roles.other.token)).statusCode).toBe(404)))
      .toBe(0);
    // A change answers the stream read again after its commit: the next read has it.
    await rename(stream.id, 'renamed');
    expect((await get(t.roles.admin.token)).json()).toMatchObject({ id: stream.id, caption: 'renamed' });
    expect((await get(t.roles.owner.token)).json()).toMatchObject({ id: stream.id, caption: 'renamed' });
  });
});

describe('answers kept in memory (db/response-cache.ts)', () => {
  const list = (token = t.roles.owner.token) => t.request({ method: 'GET', url: '/api/v1/inputs', token });
  const get = (id: string, token = t.roles.owner.token) =>
    t.request({ method: 'GET', url: `/api/v1/inputs/${id}`, token });

  it("sees every write on the very next read: the owner's, an ADMIN's, a node report's, another connection's", async () => {
    const node = await t.createNode(t.roles.admin);
    const stream = await t.createInput({ caption: 'first' });
    const page = await list();
    // The database's notice of the creation (heard late on a loaded machine) may drop the first answer kept.
    await expect.poll(() => t.queryCount(async () => expect((await list()).body).toBe(page.body))).toBe(0);
    expect((await get(stream.id)).json().status).toBe('Idle');

    await rename(stream.id, 'by the admin', t.roles.admin.token);
    expect((await list()).json()[0].caption).toBe('by the admin');
    await setStatus(node.token, stream.id, 'Ingestion');
    expect((await get(stream.id)).json().status).toBe('Ingestion');
    expect((await list()).json()[0].status).toBe('Ingestion');
    await t.createInput({ caption: 'second' });
    expect((await list()).headers['x-total-count']).toBe('2');
    // Written on another connection, as another API process would: heard through the database's notice.
    await t.database.db.updateTable('inputs').set({ caption: 'elsewhere' }).where('id', '=', stream.id).execute();
    await expect.poll(async () => (await get(stream.id)).json().caption).toBe('elsewhere');
    const deleted = await t.request({
      method: 'DELETE',
      url: `/api/v1/accounts/${t.roles.owner.id}`,
      token: t.roles.admin.token,
    });
    expect(deleted.statusCode).toBe(204);
    expect((await get(stream.id, t.roles.admin.token)).statusCode).toBe(404);
    expect((await list(t.roles.admin.token)).headers['x-total-count']).toBe('0');
  });

  it('keeps apart the answers of different readers, pages and scopes', async () => {
    const mine = await t.createInput({ caption: 'mine' });
    await t.createInput({ caption: 'theirs' }, t.roles.other.token);
    for (let round = 0; round < 2; round++) {
      expect((await list()).json().map((s: { caption: string }) => s.caption)).toEqual(['mine']);
      expect((await list(t.roles.other.token)).json().map((s: { caption: string }) => s.caption)).toEqual(['theirs']);
      expect((await list(t.roles.admin.token)).headers['x-total-count']).toBe('2');
      const second = await t.request({ method: 'GET', url: '/api/v1/inputs?offset=1', token: t.roles.admin.token });
      expect(second.json()).toHaveLength(1);
      expect((await get(mine.id, t.roles.other.token)).statusCode).toBe(404);
      expect((await get(mine.id)).statusCode).toBe(200);
    }
  });
});

describe('GET /inputs', () => {
  it('pages in the list order with X-Total-Count, each USER seeing only its own', async () => {
    await t.createInput({ format: 'RTMP', caption: 'beta' });
    await t.createInput({ format: 'RTMP', caption: 'Alpha' });
    await t.createInput({ format: 'SRT', caption: 'zulu' });
    await t.createInput({ caption: 'not yours' }, t.roles.other.token);
    const page = await t.request({ method: 'GET', url: '/api/v1/inputs?offset=0&limit=2', token: t.roles.owner.token });
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.json().map((s: { caption: string }) => s.caption)).toEqual(['Alpha', 'beta']);
    const rest = await t.request({ method: 'GET', url: '/api/v1/inputs?offset=2&limit=2', token: t.roles.owner.token });
    expect(rest.json().map((s: { caption: string }) => s.caption)).toEqual(['zulu']);
    const all = await t.request({ method: 'GET', url: '/api/v1/inputs', token: t.roles.admin.token });
    expect(all.headers['x-total-count']).toBe('4');
  });

  it('keeps the total true through deletes of an input and of a whole account', async () => {
    const total = async (token: string, query = '') =>
      (await t.request({ method: 'GET', url: `/api/v1/inputs${query}`, token })).headers['x-total-count'];
    const first = await t.createInput();
    await t.createInput();
    await t.createInput({}, t.roles.other.token);
    expect(await total(t.roles.admin.token)).toBe('3');
    const removed = await t.request({
      method: 'DELETE',
      url: `/api/v1/inputs/${first.id}`,
      token: t.roles.owner.token,
    });
    expect(removed.statusCode).toBe(204);
    expect(await total(t.roles.owner.token)).toBe('1');
    const gone = await t.request({
      method: 'DELETE',
      url: `/api/v1/accounts/${t.roles.other.id}`,
      token: t.roles.admin.token,
    });
    expect(gone.statusCode).toBe(204);
    expect(await total(t.roles.admin.token)).toBe('1');
    expect(await total(t.roles.admin.token, `?account=${t.roles.other.id}`)).toBe('0');
  });

  it('filters by account for ADMIN; a USER naming another account gets 404', async () => {
    await t.createInput();
    await t.createInput({}, t.roles.other.token);
    const filtered = await t.request({
      method: 'GET',
      url: `/api/v1/inputs?account=${t.roles.other.id}`,
      token: t.roles.admin.token,
    });
    expect(filtered.json()).toHaveLength(1);
    expect(filtered.json()[0].ownerId).toBe(t.roles.other.id);
    expect(
      (
        await t.request({
          method: 'GET',
          url: `/api/v1/inputs?account=${t.roles.other.id}`,
          token: t.roles.owner.token,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.request({
          method: 'GET',
          url: `/api/v1/inputs?account=${t.roles.owner.id}`,
          token: t.roles.owner.token,
        })
      ).statusCode,
    ).toBe(200);
  });

  it("writes the page's JSON (from the database) byte for byte as the contract's serializer would", async () => {
    const captions = ['Quote " back\\slash', 'tab\tnew\nline\u0001\u007f', 'é ünïcødé 😀 \u2028 end'];
    const created = [];
    for (const caption of captions) created.push(await t.createInput({ format: 'RTMP', caption }));
    const uncaptioned = await t.createInput({ format: 'RTMP' });
    await t.database.db.updateTable('inputs').set({ caption: null }).where('id', '=', uncaptioned.id).execute();
    created.push({ ...uncaptioned, caption: null });
    // Names the API never makes but a stream may carry: outputModeOfName's every white space after `in`.
    const names = [...'+ \t\n\v\f\r\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeffx-'].map(
      (next) => `in${next}${randomUUID()}`,
    );
    for (const name of names) {
      const stream = await t.createInput({ format: 'SRT' });
      await t.database.db.updateTable('inputs').set({ name }).where('id', '=', stream.id).execute();
    }
    const page = await t.request({ method: 'GET', url: '/api/v1/inputs?limit=200', token: t.roles.owner.token });
    expect(page.headers['content-type']).toBe('application/json; charset=utf-8');
    const items = z.array(StreamInputSummary).parse(page.json());
    const serialize = compiledSerializerCompiler()({
      schema: z.array(StreamInputSummary),
      method: 'GET',
      url: '/api/v1/inputs',
    } as never) as (data: unknown) => string;
    expect(page.body).toBe(serialize(items));
    const listed = new Map(items.map((item) => [item.id, item]));
    expect(created.map(({ id }) => listed.get(id)?.caption)).toEqual([...captions, null]);
    expect(created.map(({ id }) => listed.get(id)?.createdAt)).toEqual(created.map(({ createdAt }) => createdAt));
    const modes = Object.fromEntries(items.map((item) => [item.name, item.outputMode]));
    expect(names.map((name) => modes[name])).toEqual(names.map(outputModeOfName));
    expect(new Set(names.map(outputModeOfName))).toEqual(new Set(['AdjustableTranscode', 'Passthrough']));
    const empty = await t.request({ method: 'GET', url: '/api/v1/inputs?offset=500', token: t.roles.owner.token });
    expect(empty.body).toBe('[]');
  });

  it('refuses a limit over 200', async () => {
    const response = await t.request({ method: 'GET', url: '/api/v1/inputs?limit=201', token: t.roles.owner.token });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].path).toBe('querystring.limit');
  });
});

describe('PUT /inputs/{id}', () => {
  it('changes caption and streamer; refuses creation-time fields with 400', async () => {
    const input = await t.createInput();
    const changed = await t.request({
      method: 'PUT',
      url: `/api/v1/inputs/${input.id}`,
      token: t.roles.owner.token,
      payload: { caption: 'Main stage', streamer: { ipAddress: '81.2.69.160' } },
    });
    expect(changed.json()).toMatchObject({ caption: 'Main stage', streamer: { ipAddress: '81.2.69.160' } });
    for (const field of ['format', 'access', 'gslb', 'callbackUri', 'output', 'accessToken']) {
      const refused = await t.request({
        method: 'PUT',
        url: `/api/v1/inputs/${input.id}`,
        token: t.roles.owner.token,
        payload: { [field]: 'RTMP' },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors).toContainEqual({
        path: `body.${field}`,
        message: `${field} can be set only when the stream is created`,
      });
    }
    expect(
      (
        await t.request({
          method: 'PUT',
          url: `/api/v1/inputs/${input.id}`,
          token: t.roles.owner.token,
          payload: { state: 'Ingestion' },
        })
      ).statusCode,
    ).toBe(400);
  });

  it('stops only in Ingestion, Fallback or Pending, else 409', async () => {
    const node = await t.createNode(t.roles.admin);
    const input = await t.createInput();
    expect(input.status).toBe('Idle');
    const idle = await t.request({
      method: 'PUT',
      url: `/api/v1/inputs/${input.id}`,
      token: t.roles.owner.token,
      payload: { state: 'Idle' },
    });
    expect(idle.statusCode).toBe(409);
    expect(idle.json().message).toBe('A stream can be stopped only in Ingestion, Fallback or Pending; it is Idle');
    await setStatus(node.token, input.id, 'Ingestion');
    const stopped = await t.request({
      method: 'PUT',
      url: `/api/v1/inputs/${input.id}`,
      token: t.roles.owner.token,
      payload: { state: 'Idle' },
    });
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json().status).toBe('Idle');
    expect(stopped.json().statusMessages[0].text).toBe('Stopped by alice');
  });
});

describe('node reports and assignment', () => {
  it('drives a stream through every status with messages, tracks and sessions', async () => {
    const node = await t.createNode(t.roles.admin);
    const input = await t.createInput({ format: 'RTMP' });
    const output = await t.createOutput({ streamId: input.id, format: 'HLS' });
    for (const status of ['Ingestion', 'Fallback', 'Error', 'Idle']) {
      await setStatus(node.token, input.id, status, {
        level: status === 'Error' ? 'error' : 'info',
        text: `now ${status}`,
      });
      const current = (
        await t.request({ method: 'GET', url: `/api/v1/inputs/${input.id}`, token: t.roles.owner.token })
      ).json();
      expect(current.status).toBe(status);
      expect(current.statusMessages[0].text).toBe(`now ${status}`);
    }
    const track = {
      idx: 0,
      type: 'Video',
      codec: 'H264',
      width: 1280,
      height: 720,
      bps: 2_000_000,
      channels: null,
      rate: 30,
    };
    await t.report(node.token, [
      {
        id: randomUUID(),
        kind: 'stream-state',
        streamId: input.id,
        tracks: { incoming: [track] },
        outputs: [
          {
            outputId: output.id,
            sessions: [{ id: 's1', ipAddress: '203.0.113.9', startedAt: '2026-11-26T10:00:00.000Z', bytes: 1000 }],
          },
        ],
      },
    ]);
    expect(
      (
        await t.request({ method: 'GET', url: `/api/v1/info/stream/${input.id}/incoming`, token: t.roles.owner.token })
      ).json(),
    ).toEqual([track]);
    expect(
      (
        await t.request({ method: 'GET', url: `/api/v1/info/stream/${input.id}/outgoing`, token: t.roles.owner.token })
      ).json(),
    ).toEqual([]);
    const outputs = await t.request({
      method: 'GET',
      url: `/api/v1/outputs?streamId=${input.id}`,
      token: t.roles.owner.token,
    });
    expect(outputs.json()[0].sessions).toEqual([
      { id: 's1', ipAddress: '203.0.113.9', startedAt: '2026-11-26T10:00:00.000Z', bytes: 1000 },
    ]);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/v1/outputs/${output.id}/sessions`, token: t.roles.owner.token }))
        .statusCode,
    ).toBe(204);
    expect(
      (
        await t.request({ method: 'GET', url: `/api/v1/outputs?streamId=${input.id}`, token: t.roles.owner.token })
      ).json()[0].sessions,
    ).toEqual([]);
  });

  it("ignores reports about another node's stream", async () => {
    const mine = await t.createNode(t.roles.admin);
    const input = await t.createInput();
    const stranger = await t.createNode(t.roles.admin, { enabled: false });
    const response = await t.report(stranger.token, [
      { id: randomUUID(), kind: 'stream-state', streamId: input.id, status: 'Ingestion' },
    ]);
    expect(response.statusCode).toBe(200);
    expect(
      (await t.request({ method: 'GET', url: `/api/v1/inputs/${input.id}`, token: t.roles.owner.token })).json().status,
    ).toBe('Idle');
    expect(mine.id).toBe(input.nodeId);
  });

  it('refuses a user token on the node-facing API and validates reports', async () => {
    const node = await t.createNode(t.roles.admin);
    const input = await t.createInput();
    expect(
      (await t.report(t.roles.owner.token, [{ id: 'x', kind: 'stream-state', streamId: input.id }])).statusCode,
    ).toBe(401);
    const invalid = await t.report(node.token, [
      { id: 'x', kind: 'stream-state', streamId: input.id, status: 'Pending' },
    ]);
    expect(invalid.statusCode).toBe(400);
  });

  it('assigns waiting inputs once a node becomes available', async () => {
    const input = await t.createInput();
    expect(await t.app.services.streams.assignWaiting()).toBe(0);
    const node = await t.createNode(t.roles.admin);
    expect(await t.app.services.streams.assignWaiting()).toBe(1);
    const assigned = (
      await t.request({ method: 'GET', url: `/api/v1/inputs/${input.id}`, token: t.roles.owner.token })
    ).json();
    expect(assigned).toMatchObject({ status: 'Idle', nodeId: node.id });
    expect(assigned.statusMessages[0].text).toBe(`Assigned to node ${node.name}`);
  });

  it('tells a node its inputs with their outputs and tokens', async () => {
    const node = await t.createNode(t.roles.admin);
    const input = await t.createInput({ access: 'Private', accessToken: 'secret-1' });
    const output = await t.createOutput({ streamId: input.id });
    const response = await t.request({ method: 'GET', url: '/api/v1/node/inputs', token: node.token });
    expect(response.json()).toEqual([
      {
        id: input.id,
        name: input.name,
        format: 'WebRTC',
        status: 'Idle',
        access: 'Private',
        accessToken: 'secret-1',
        previousAccessToken: null,
        outputMode: 'AdjustableTranscode',
        outputs: [
          {
            id: output.id,
            name: output.name,
            format: 'RTMP',
            access: 'Private',
            accessToken: expect.stringMatching(/^[\w-]{32}$/),
            previousAccessToken: null,
            sessionsClearedAt: null,
          },
        ],
        ingressName: null,
        previewKey: expect.stringMatching(/^[\w-]{43}$/),
        edgeKey: expect.stringMatching(/^[\w-]{43}$/),
        origin: null,
        source: null,
        signing: null,
        versions: {
          config: expect.stringMatching(/^[0-9a-f]{32}$/),
          snapshots: expect.stringMatching(/^[0-9a-f]{32}$/),
          recordings: expect.stringMatching(/^[0-9a-f]{32}$/),
          relays: expect.stringMatching(/^[0-9a-f]{32}$/),
          fallbacks: expect.stringMatching(/^[0-9a-f]{32}$/),
          outputs: expect.stringMatching(/^[0-9a-f]{32}$/),
        },
      },
    ]);
    expect(
      (await t.request({ method: 'GET', url: '/api/v1/node/inputs', token: t.roles.owner.token })).statusCode,
    ).toBe(401);
  });
});

describe('preview credentials', () => {
  it("signs a short-lived credential with the stream's preview key, Private streams too", async () => {
    const node = await t.createNode(t.roles.admin);
    const input = await t.createInput({ access: 'Private', accessToken: 'secret-1' });
    const other = await t.createInput();
    const response = await t.request({
      method: 'POST',
      url: `/api/v1/inputs/${input.id}/preview`,
      token: t.roles.owner.token,
    });
    expect(response.statusCode).toBe(200);
    const { token, expiresAt } = response.json();
    const ttl = Date.parse(expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(590_000);
    expect(ttl).toBeLessThanOrEqual(600_000);
    const assigned = (await t.request({ method: 'GET', url: '/api/v1/node/inputs', token: node.token })).json();
    const keyOf = (id: string) => assigned.find((entry: { id: string }) => entry.id === id).previewKey;
    expect(verifyPreviewCredential(keyOf(input.id), input.id, token)).toBe(true);
    expect(verifyPreviewCredential(keyOf(other.id), other.id, token)).toBe(false);
    expect(keyOf(input.id)).not.toBe(keyOf(other.id));
  });

  it('keeps preview sessions apart from viewer sessions; clearing sessions clears them', async () => {
    const node = await t.createNode(t.roles.admin);
    const input = await t.createInput({ format: 'RTMP' });
    const output = await t.createOutput({ streamId: input.id, format: 'HLS' });
    const report = (previews: unknown) =>
      t.report(node.token, [
        {
          id: randomUUID(),
          kind: 'stream-state',
          streamId: input.id,
          outputs: [{ outputId: output.id, sessions: [], previews }],
        },
      ]);
    const listed = async () =>
      (
        await t.request({ method: 'GET', url: `/api/v1/outputs?streamId=${input.id}`, token: t.roles.owner.token })
      ).json()[0];
    expect((await listed()).previews).toBe(0);
    expect((await report(1)).statusCode).toBe(200);
    expect(await listed()).toMatchObject({ sessions: [], previews: 1 });
    const invalid = await report(-1);
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toContain('previews must be at least 0');
    expect((await listed()).previews).toBe(1);
    await t.request({ method: 'DELETE', url: `/api/v1/outputs/${output.id}/sessions`, token: t.roles.owner.token });
    expect((await listed()).previews).toBe(0);
  });
});

describe('outputs', () => {
  it('pages 4 at a time with X-Total-Count and builds playback endpoints', async () => {
    await t.createNode(t.roles.admin, { connection: { protocol: 'HTTP', hostname: 'edge.example.com', port: 4242 } });
    const input = await t.createInput();
    const formats = ['RTMP', 'WebRTC', 'HLS', 'SRT', 'RTMP'];
    for (const format of formats) {
      await t.request({
        method: 'POST',
        url: '/api/v1/outputs',
        token: t.roles.owner.token,
        payload: { streamId: input.id, format },
      });
    }
    const first = await t.request({
      method: 'GET',
      url: `/api/v1/outputs?streamId=${input.id}`,
      token: t.roles.owner.token,
    });
    expect(first.headers['x-total-count']).toBe('5');
    expect(first.json()).toHaveLength(4);
    const [rtmp, webrtc, hls, srt] = first.json();
    expect(rtmp.name).toMatch(/^out\+[0-9a-f-]{36}$/);
    expect(rtmp.connection.uri).toMatch(/^rtmp:\/\/edge\.example\.com:1935\/live\/out%2B/);
    expect(webrtc.connection.signallingUri).toMatch(/^http:\/\/edge\.example\.com:4242\/whep\/out%2B/);
    expect(hls.connection.uri).toMatch(/^http:\/\/edge\.example\.com:4242\/hls\/out%2B.+\/index\.m3u8$/);
    expect(srt.connection.uri).toMatch(/^srt:\/\/edge\.example\.com:9720\?streamid=out%2B/);
    const second = await t.request({
      method: 'GET',
      url: `/api/v1/outputs?streamId=${input.id}&offset=4`,
      token: t.roles.owner.token,
    });
    expect(second.json()).toHaveLength(1);
  });

  it('answers 400 without a streamId and for a bad format', async () => {
    expect((await t.request({ method: 'GET', url: '/api/v1/outputs', token: t.roles.owner.token })).statusCode).toBe(
      400,
    );
    const input = await t.createInput();
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/v1/outputs',
          token: t.roles.owner.token,
          payload: { streamId: input.id, format: 'FLV' },
        })
      ).statusCode,
    ).toBe(400);
  });
});

describe('DELETE /inputs/{id}', () => {
  it('deletes the input with its outputs, messages, tracks and ingress endpoint', async () => {
    const input = await t.createInput({ gslb: true });
    await t.request({
      method: 'POST',
      url: '/api/v1/outputs',
      token: t.roles.owner.token,
      payload: { streamId: input.id },
    });
    expect(
      (await t.request({ method: 'DELETE', url: `/api/v1/inputs/${input.id}`, token: t.roles.owner.token })).statusCode,
    ).toBe(204);
    for (const table of ['outputs', 'input_status_messages', 'ingress_endpoints'] as const) {
      const rows = await t.database.db.selectFrom(table).selectAll().execute();
      expect(rows, table).toEqual([]);
    }
    expect(
      (await t.request({ method: 'GET', url: `/api/v1/inputs/${input.id}`, token: t.roles.owner.token })).statusCode,
    ).toBe(404);
  });
});

describe('GSLB ingress endpoint', () => {
  it('is provisioned once, named as+<uuid>', async () => {
    const input = await t.createInput({ format: 'RTMP' });
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/gslb/input',
      token: t.roles.owner.token,
      payload: { streamId: input.id },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      streamId: input.id,
      name: expect.stringMatching(/^as\+[0-9a-f-]{36}$/),
      connection: { uri: expect.stringMatching(/^rtmp:\/\/localhost:1935\/live\/as%2B/) },
    });
    expect(
      (
        await t.request({ method: 'GET', url: `/api/v1/gslb/input/stream/${input.id}`, token: t.roles.owner.token })
      ).json(),
    ).toEqual(created.json());
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/v1/gslb/input',
          token: t.roles.owner.token,
          payload: { streamId: input.id },
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (await t.request({ method: 'GET', url: `/api/v1/inputs/${input.id}`, token: t.roles.owner.token })).json().gslb,
    ).toBe(true);
  });
});

describe('GET /info/location', () => {
  it('locates public addresses and answers 404 for private ones', async () => {
    const found = await t.request({
      method: 'GET',
      url: '/api/v1/info/location?ipAddress=81.2.69.160',
      token: t.roles.owner.token,
    });
    expect(found.json()).toEqual({
      ipAddress: '81.2.69.160',
      description: 'Bracknell, England, United Kingdom',
      geo: expect.any(Object),
    });
    expect(
      (
        await t.request({
          method: 'GET',
          url: '/api/v1/info/location?ipAddress=192.168.1.20',
          token: t.roles.owner.token,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.request({ method: 'GET', url: '/api/v1/info/location', token: t.roles.owner.token })).statusCode,
    ).toBe(404);
    expect(
      (await t.request({ method: 'GET', url: '/api/v1/info/location?ipAddress=nope', token: t.roles.owner.token }))
        .statusCode,
    ).toBe(400);
  });
});
