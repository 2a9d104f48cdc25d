import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ownerOnly, roleMatrixTests, useTestApp } from '../../../test/helpers.js';
import { dataUri, makeJpeg, makePng } from '../../../test/images.js';

const t = useTestApp({}, { roles: true });
const slate = (streamId: string, bytes: Buffer = makePng(64, 36), extra: object = {}) => ({
  streamId,
  type: 'Slate',
  label: 'Be right back',
  settings: { resources: [{ type: 'DATA_URI', data: dataUri(bytes) }] },
  ...extra,
});
const create = (payload: object, token = t.roles.owner.token) =>
  t.request({ method: 'POST', url: '/api/v1/fallbacks', token, payload });
const list = (streamId: string, token = t.roles.owner.token) =>
  t.request({ method: 'GET', url: `/api/v1/fallbacks?streamId=${streamId}`, token });
const insertStorage = async (ownerId: string) => {
  const id = randomUUID();
  await sql`insert into storages (id, owner_id, name, type, access_key_id, secret_access_key_enc, bucket)
    values (${id}, ${ownerId}, 'media', 'AmazonS3', 'AKIA', 'sealed', 'bucket')`.execute(t.database.db);
  return id;
};

describe('role matrix', () => {
  roleMatrixTests<{ input: string; fallback: string }>(
    [
      {
        name: 'POST /fallbacks',
        call: ({ input }) => ['POST', '/api/v1/fallbacks', slate(input)],
        expected: ownerOnly(201),
      },
      {
        name: 'PUT /fallbacks/{id}',
        call: ({ input, fallback }) => [
          'PUT',
          `/api/v1/fallbacks/${fallback}`,
          slate(input, undefined, { label: 'Changed' }),
        ],
        expected: ownerOnly(200),
      },
      {
        name: 'GET /fallbacks?streamId=',
        call: ({ input }) => ['GET', `/api/v1/fallbacks?streamId=${input}`],
        expected: ownerOnly(200),
      },
      {
        name: 'DELETE /fallbacks/{id}',
        call: ({ fallback }) => ['DELETE', `/api/v1/fallbacks/${fallback}`],
        expected: ownerOnly(204),
      },
    ],
    {
      roles: () => t.roles,
      subject: async () => {
        const input = await t.createInput();
        const fallback = (await create(slate(input.id))).json();
        return { input: input.id, fallback: fallback.id };
      },
    },
  );

  it('GET /node/inputs/{id}/fallbacks answers the serving node only, and no user token', async () => {
    const node = await t.createNode(t.roles.admin);
    const input = await t.createInput();
    await create(slate(input.id));
    const stranger = await t.createNode(t.roles.admin, { enabled: false });
    const url = `/api/v1/node/inputs/${input.id}/fallbacks`;
    const mine = await t.request({ method: 'GET', url, token: node.token });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toHaveLength(1);
    expect((await t.request({ method: 'GET', url, token: stranger.token })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url, token: t.roles.owner.token })).statusCode).toBe(401);
  });

  it("gives the node a storage object's credentials, and null when the secret cannot be opened or for other sources", async () => {
    const node = await t.createNode(t.roles.admin);
    const input = await t.createInput();
    const saved = await t.request({
      method: 'POST',
      url: '/api/v1/storages?check=false',
      token: t.roles.owner.token,
      payload: {
        name: 'Slates',
        type: 'AmazonS3',
        accessKeyId: 'AKIDEXAMPLE',
        secretAccessKey: 'very-secret-key',
        bucket: 'media',
        path: 'live',
      },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const unreadable = await insertStorage(t.roles.owner.id);
    await create(slate(input.id));
    const stored = (
      await create({
        streamId: input.id,
        type: 'Video',
        settings: { resources: [{ type: 'STORAGE', data: `${saved.json().id}/loops/intro.mp4` }] },
      })
    ).json();
    const sealed = (
      await create({
        streamId: input.id,
        type: 'Slate',
        settings: { resources: [{ type: 'STORAGE', data: `${unreadable}/slate.png` }] },
      })
    ).json();
    const answer = await t.request({
      method: 'GET',
      url: `/api/v1/node/inputs/${input.id}/fallbacks`,
      token: node.token,
    });
    expect(answer.statusCode).toBe(200);
    const storages = new Map(answer.json().map((f: { id: string; storage: unknown }) => [f.id, f.storage]));
    expect(storages.get(stored.id)).toEqual({
      type: 'AmazonS3',
      bucket: 'media',
      path: 'live',
      regionName: null,
      endpoint: null,
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'very-secret-key',
    });
    expect(storages.get(sealed.id)).toBeNull();
    expect([...storages.values()].filter((storage) => storage === null)).toHaveLength(2);
    // The owner's own list never carries credentials.
    expect((await list(input.id)).body).not.toContain('very-secret-key');
  });
});

describe('fallbacks', () => {
  it('creates each type Pending, lists them oldest first, updates and deletes', async () => {
    const input = await t.createInput();
    const storage = await insertStorage(t.roles.owner.id);
    const png = makePng(1920, 1080);
    const first = await create(slate(input.id, png));
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      streamId: input.id,
      type: 'Slate',
      label: 'Be right back',
      state: 'Pending',
      message: null,
      settings: { resources: [{ type: 'DATA_URI', data: dataUri(png) }] },
    });
    const live = await create({
      streamId: input.id,
      type: 'Input',
      settings: { resources: [{ type: 'URL', data: 'srt://backup.example.com:9000?streamid=b' }] },
    });
    expect(live.statusCode, live.body).toBe(201);
    expect(live.json().label).toBeNull();
    const video = await create({
      streamId: input.id,
      type: 'Video',
      label: 'Loop',
      settings: { resources: [{ type: 'STORAGE', data: `${storage}/loops/intro.mp4` }] },
    });
    expect(video.statusCode, video.body).toBe(201);
    expect((await list(input.id)).json().map((item: { type: string }) => item.type)).toEqual([
      'Slate',
      'Input',
      'Video',
    ]);

    const changed = await t.request({
      method: 'PUT',
      url: `/api/v1/fallbacks/${live.json().id}`,
      token: t.roles.owner.token,
      payload: {
        streamId: input.id,
        type: 'Video',
        label: 'Now a video',
        settings: { resources: [{ type: 'URL', data: 'https://cdn.example.com/loop.mp4' }] },
      },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ type: 'Video', label: 'Now a video', state: 'Pending' });

    expect(
      (await t.request({ method: 'DELETE', url: `/api/v1/fallbacks/${first.json().id}`, token: t.roles.owner.token }))
        .statusCode,
    ).toBe(204);
    expect((await list(input.id)).json()).toHaveLength(2);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/v1/fallbacks/${first.json().id}`, token: t.roles.owner.token }))
        .statusCode,
    ).toBe(404);
    const audit = await sql<{
      action: string;
    }>`select action from audit_log where target_type = 'fallback' order by id`.execute(t.database.db);
    expect(audit.rows.map((row) => row.action)).toEqual([
      'fallback.create',
      'fallback.create',
      'fallback.create',
      'fallback.update',
      'fallback.delete',
    ]);
  });

  it('checks the form rules: type, stream, label up to 250, data', async () => {
    const input = await t.createInput();
    const missing = await create({ settings: { resources: [] } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([
      { path: 'body.streamId', message: 'Stream is required' },
      { path: 'body.type', message: 'Type is required' },
      { path: 'body.settings.resources', message: 'Data is required' },
    ]);
    expect((await create(slate(input.id, undefined, { label: 'x'.repeat(250) }))).statusCode).toBe(201);
    const long = await create(slate(input.id, undefined, { label: 'x'.repeat(251) }));
    expect(long.json().message).toBe('Invalid request: body.label: Label must be at most 250 characters');
    const wrongSource = await create({
      streamId: input.id,
      type: 'Input',
      settings: { resources: [{ type: 'STORAGE', data: `${randomUUID()}/a` }] },
    });
    expect(wrongSource.json().message).toBe(
      'Invalid request: body.settings.resources.0.type: A Input fallback takes URL',
    );
  });

  it("refuses a storage that is not the stream owner's, and a change of stream", async () => {
    const input = await t.createInput();
    const foreign = await insertStorage(t.roles.other.id);
    const refused = await create({
      streamId: input.id,
      type: 'Video',
      settings: { resources: [{ type: 'STORAGE', data: `${foreign}/a.mp4` }] },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(`Storage ${foreign} not found among the stream owner's storages`);
    const fallback = (await create(slate(input.id))).json();
    const another = await t.createInput();
    const moved = await t.request({
      method: 'PUT',
      url: `/api/v1/fallbacks/${fallback.id}`,
      token: t.roles.owner.token,
      payload: slate(another.id),
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().message).toBe('streamId cannot be changed: a fallback stays with its stream');
    const unknownStream = await create(slate(randomUUID()));
    expect(unknownStream.statusCode).toBe(404);
  });

  it('takes states from the node serving the stream only; an update makes it Pending again', async () => {
    const node = await t.createNode(t.roles.admin);
    const input = await t.createInput();
    const fallback = (await create(slate(input.id))).json();
    const stranger = await t.createNode(t.roles.admin, { enabled: false });
    expect(
      (
        await t.report(stranger.token, [
          { id: randomUUID(), kind: 'fallback-state', fallbackId: fallback.id, state: 'Error' },
        ])
      ).statusCode,
    ).toBe(200);
    expect((await list(input.id)).json()[0].state).toBe('Pending');
    for (const state of ['Ingestion', 'Error']) {
      const response = await t.report(node.token, [
        { id: randomUUID(), kind: 'fallback-state', fallbackId: fallback.id, state, message: `now ${state}` },
      ]);
      expect(response.statusCode, response.body).toBe(200);
      expect((await list(input.id)).json()[0]).toMatchObject({ state, message: `now ${state}` });
    }
    expect(
      (
        await t.report(node.token, [
          { id: randomUUID(), kind: 'fallback-state', fallbackId: fallback.id, state: 'Stopped' },
        ])
      ).statusCode,
    ).toBe(400);
    const updated = await t.request({
      method: 'PUT',
      url: `/api/v1/fallbacks/${fallback.id}`,
      token: t.roles.owner.token,
      payload: slate(input.id),
    });
    expect(updated.json()).toMatchObject({ state: 'Pending', message: null });
  });

  it('goes with its stream', async () => {
    const input = await t.createInput();
    await create(slate(input.id));
    await t.request({ method: 'DELETE', url: `/api/v1/inputs/${input.id}`, token: t.roles.owner.token });
    const rows = await sql<{ count: number }>`select count(*)::int as count from fallbacks`.execute(t.database.db);
    expect(rows.rows[0]?.count).toBe(0);
  });
});

describe('slate image, judged by its bytes', () => {
  const refuse = async (bytes: Buffer, message: string, mediaType = 'image/png') => {
    const input = await t.createInput();
    const response = await create(
      slate(input.id, bytes, { settings: { resources: [{ type: 'DATA_URI', data: dataUri(bytes, mediaType) }] } }),
    );
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toBe(message);
  };

  it('accepts 5 MB exactly, 1920x1080, and one side over the limit', async () => {
    const input = await t.createInput();
    const big = makeJpeg(1920, 1080, { bytes: 5_000_000 });
    const response = await create(
      slate(input.id, big, { settings: { resources: [{ type: 'DATA_URI', data: dataUri(big, 'image/jpeg') }] } }),
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().settings.resources[0].data.startsWith('data:image/jpeg;base64,')).toBe(true);
    expect((await create(slate(input.id, makePng(1921, 1080)))).statusCode).toBe(201);
    expect((await create(slate(input.id, makePng(1920, 1081)))).statusCode).toBe(201);
  });

  it('refuses 1 byte over 5 MB, other bytes, and both sides over 1920x1080', async () => {
    await refuse(makePng(100, 100, { bytes: 5_000_001 }), 'Maximum size allowed is 5 Mb');
    await refuse(Buffer.from('%PDF-1.7 not an image'), 'Only Images are allowed ( JPG | PNG )');
    await refuse(makePng(1921, 1081), 'Maximum dimensions allowed 1920x1080 px');
    await refuse(makeJpeg(4000, 3000, { bytes: 10_000 }), 'Maximum dimensions allowed 1920x1080 px', 'image/jpeg');
  });
});
