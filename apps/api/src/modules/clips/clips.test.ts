import { randomUUID } from 'node:crypto';
import { CLIP_MESSAGES } from '@streamcloud/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { expectValidationError, ownerOnly, roleMatrixTests, useNodeStub, useTestApp } from '../../../test/helpers.js';
import { StreamJobWorld } from '../../../test/stream-jobs.js';

const t = useTestApp(() => ({ clock: w.clock }), { roles: true });
const stub = useNodeStub();
const w = new StreamJobWorld(t, { path: 'recordings', reportKind: 'recording-state', reportKey: 'recordingId' });
const { call, createStorage } = w;
let storageId: string;

/** The last `seconds` before now, as a stream clip's range. */
const lastSeconds = (seconds: number, endAgo = 1) => {
  const now = w.clock.now().getTime();
  return {
    from: new Date(now - (endAgo + seconds) * 1000).toISOString(),
    to: new Date(now - endAgo * 1000).toISOString(),
  };
};
const streamClip = (overrides: object = {}) => ({
  streamId: w.streamId,
  ...lastSeconds(30),
  caption: 'The goal',
  storageId,
  ...overrides,
});
const createClip = async (overrides: object = {}, token = w.owner.token) => {
  const response = await call(token, 'POST', '/clips', streamClip(overrides));
  if (response.statusCode !== 201) throw new Error(`clip: ${response.statusCode} ${response.body}`);
  return response.json() as { id: string; state: string };
};
const clipReport = async (clipId: string, fields: object, nodeToken = w.node.token) => {
  const response = await t.report(nodeToken, [{ id: randomUUID(), kind: 'clip-state', clipId, ...fields }]);
  expect(response.statusCode, response.body).toBe(200);
};
const stateOf = async (id: string) => (await call(w.owner.token, 'GET', `/clips/${id}`)).json();

beforeEach(async () => {
  w.node = await t.createNode(w.admin, {
    connection: { protocol: 'HTTP', hostname: stub.hostname, port: stub.port },
  });
  stub.trust(w.node.token);
  w.streamId = await w.createStream(w.owner.token);
  storageId = await createStorage(w.owner.token);
});

describe('role matrix', () => {
  roleMatrixTests<string>(
    [
      { name: 'POST /clips', call: () => ['POST', '/api/v1/clips', streamClip()], expected: ownerOnly(201) },
      {
        name: 'GET /clips?streamId',
        call: () => ['GET', `/api/v1/clips?streamId=${w.streamId}`],
        expected: ownerOnly(200),
      },
      { name: 'GET /clips/{id}', call: (id) => ['GET', `/api/v1/clips/${id}`], expected: ownerOnly(200) },
      {
        name: 'DELETE /clips/{id}',
        prepare: (id) => clipReport(id, { state: 'Error', message: 'Not in the window' }),
        call: (id) => ['DELETE', `/api/v1/clips/${id}`],
        expected: ownerOnly(204),
      },
    ],
    { roles: () => w.roles, subject: async () => (await createClip()).id },
  );

  it('GET /node/clips answers a node token only, with the clips waiting on that node', async () => {
    const clip = await createClip();
    for (const token of [undefined, w.owner.token, w.admin.token])
      expect((await call(token, 'GET', '/node/clips')).statusCode).toBe(401);
    const listed = await call(w.node.token, 'GET', '/node/clips');
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([
      expect.objectContaining({
        id: clip.id,
        streamId: w.streamId,
        state: 'Pending',
        window: { from: expect.any(String), to: expect.any(String) },
        recording: null,
        objectKey: `live/clips/${clip.id}.mp4`,
        storage: expect.objectContaining({ bucket: 'media', secretAccessKey: 'very-secret-key' }),
      }),
    ]);
    const otherNode = await t.createNode(w.admin);
    expect((await call(otherNode.token, 'GET', '/node/clips')).json()).toEqual([]);
  });
});

describe('GET /clips/storage-use', () => {
  it("answers what Ready clips take per storage: the caller's storages only, every account's for an ADMIN", async () => {
    const ready = async (size: number) => {
      const { id } = await createClip();
      await clipReport(id, { state: 'Ready', duration: 30, size, objectKey: `live/clips/${id}.mp4` });
    };
    await ready(1000);
    await ready(500);
    await createClip(); // Pending: nothing stored yet
    const failed = await createClip();
    await clipReport(failed.id, { state: 'Error', message: 'Not in the window' });
    await createStorage(w.other.token);
    const use = (token?: string) => call(token, 'GET', '/clips/storage-use');

    expect((await use(w.owner.token)).json()).toEqual([{ storageId, clips: 2, bytes: 1500 }]);
    expect((await use(w.other.token)).json()).toEqual([]);
    expect((await use(w.admin.token)).json()).toEqual([{ storageId, clips: 2, bytes: 1500 }]);
    expect((await use()).statusCode).toBe(401);
    // A deleted clip takes nothing any more.
    const listed = (await call(w.owner.token, 'GET', `/clips?streamId=${w.streamId}`)).json() as Array<{
      id: string;
      size: number | null;
    }>;
    const small = listed.find((clip) => clip.size === 500);
    expect((await call(w.owner.token, 'DELETE', `/clips/${small?.id}`)).statusCode).toBe(204);
    expect((await use(w.owner.token)).json()).toEqual([{ storageId, clips: 1, bytes: 1000 }]);
  });
});

describe('POST /clips', () => {
  it('makes a Pending clip on the node holding the stream, and tells that node at once (a signed refresh Clips)', async () => {
    const clip = await createClip();
    expect(clip).toMatchObject({ state: 'Pending', caption: 'The goal', streamId: w.streamId, storageId });
    expect(stub.calls).toContainEqual(expect.objectContaining({ method: 'POST', path: '/refresh' }));
    expect(stub.calls.at(-1)?.body).toEqual({ mode: 'Clips' });
  });

  it("takes the storage of the stream's latest recording when none is named, else refuses naming storageId", async () => {
    const refused = await call(w.owner.token, 'POST', '/clips', streamClip({ storageId: undefined }));
    expectValidationError(refused, 'body.storageId', CLIP_MESSAGES.noStorage);
    const recording = await call(w.owner.token, 'POST', '/recordings', {
      streamId: w.streamId,
      storageId,
      capture: { source: 'Incoming', tracks: [{ type: 'Video' }] },
    });
    expect(recording.statusCode, recording.body).toBe(201);
    const made = await call(w.owner.token, 'POST', '/clips', streamClip({ storageId: undefined }));
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().storageId).toBe(storageId);
  });

  const badBodies: [string, () => object, string, string][] = [
    ['no source', () => streamClip({ streamId: undefined }), 'body.streamId', CLIP_MESSAGES.oneSource],
    ['both sources', () => streamClip({ recordingId: randomUUID() }), 'body.streamId', CLIP_MESSAGES.oneSource],
    [
      'to before from',
      () => streamClip({ from: lastSeconds(1).to, to: lastSeconds(5).from }),
      'body.to',
      CLIP_MESSAGES.toAfterFrom,
    ],
    ['to equal to from', () => streamClip({ to: lastSeconds(30).from }), 'body.to', CLIP_MESSAGES.toAfterFrom],
    ['longer than 10 minutes', () => streamClip(lastSeconds(601)), 'body.to', CLIP_MESSAGES.tooLong],
    ['seconds for a stream clip', () => streamClip({ from: 1, to: 5 }), 'body.from', CLIP_MESSAGES.streamTime],
    ['a caption too long', () => streamClip({ caption: 'x'.repeat(256) }), 'body.caption', CLIP_MESSAGES.captionMax],
    ['to in the future', () => streamClip(lastSeconds(30, -60)), 'body.to', CLIP_MESSAGES.inFuture],
    [
      'from before the longest window',
      () => streamClip(lastSeconds(30, 5 * 3600)),
      'body.from',
      CLIP_MESSAGES.beforeWindow,
    ],
  ];
  for (const [what, body, path, message] of badBodies)
    it(`refuses ${what} with 400 naming ${path}, and makes nothing`, async () => {
      expectValidationError(await call(w.owner.token, 'POST', '/clips', body()), path, message);
      expect((await call(w.owner.token, 'GET', `/clips?streamId=${w.streamId}`)).json()).toEqual([]);
    });

  it("refuses another account's storage (404) and a storage of another account than the stream's (400)", async () => {
    const bobs = await createStorage(w.other.token, 'Not yours');
    const mine = await call(w.owner.token, 'POST', '/clips', streamClip({ storageId: bobs }));
    expect(mine.statusCode).toBe(404);
    const admin = await call(w.admin.token, 'POST', '/clips', streamClip({ storageId: bobs }));
    expectValidationError(admin, 'body.storageId', CLIP_MESSAGES.storageOfAnotherAccount);
  });

  it('refuses a recording that is not Completed, and a range beyond its end', async () => {
    const created = await call(w.owner.token, 'POST', '/recordings', {
      streamId: w.streamId,
      storageId,
      fileFormat: 'MP4',
      capture: { source: 'Incoming', tracks: [{ type: 'Video' }] },
    });
    const recordingId = created.json().id as string;
    const body = { recordingId, from: 2, to: 8, caption: 'From the file' };
    await w.report(recordingId, { state: 'Uploading', objectKey: 'live/show.mp4', duration: 20 });
    expectValidationError(
      await call(w.owner.token, 'POST', '/clips', body),
      'body.recordingId',
      CLIP_MESSAGES.recordingNotCompleted('Uploading'),
    );
    const fileless = (
      await call(w.owner.token, 'POST', '/recordings', {
        streamId: w.streamId,
        storageId,
        capture: { source: 'Incoming', tracks: [{ type: 'Video' }] },
      })
    ).json().id as string;
    await w.report(fileless, { state: 'Completed', duration: 20 });
    expectValidationError(
      await call(w.owner.token, 'POST', '/clips', { ...body, recordingId: fileless }),
      'body.recordingId',
      CLIP_MESSAGES.recordingWithoutFile,
    );
    await w.report(recordingId, { state: 'Completed', duration: 20 });
    expectValidationError(
      await call(w.owner.token, 'POST', '/clips', { ...body, to: 21 }),
      'body.to',
      CLIP_MESSAGES.beyondRecording(20),
    );
    const made = await call(w.owner.token, 'POST', '/clips', body);
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ recordingId, from: 2, to: 8, storageId });
    const [listed] = (await call(w.node.token, 'GET', '/node/clips')).json();
    expect(listed.recording).toMatchObject({ objectKey: 'live/show.mp4', from: 2, to: 8 });
    expect(listed.window).toBeNull();
  });

  it('makes concurrent identical requests separate clips', async () => {
    const answers = await Promise.all([1, 2, 3].map(() => call(w.owner.token, 'POST', '/clips', streamClip())));
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((answer) => answer.json().id)).size).toBe(3);
  });
});

describe('states from the node', () => {
  it('goes Pending → Processing → Ready with the file, and a late or repeated report changes nothing', async () => {
    const { id } = await createClip();
    await clipReport(id, { state: 'Processing' });
    expect((await stateOf(id)).state).toBe('Processing');
    await clipReport(id, { state: 'Ready', duration: 30.4, size: 123456, objectKey: `live/clips/${id}.mp4` });
    expect(await stateOf(id)).toMatchObject({
      state: 'Ready',
      duration: 30.4,
      size: 123456,
      finishedAt: expect.any(String),
    });
    await clipReport(id, { state: 'Error', message: 'too late' });
    await clipReport(id, { state: 'Processing' });
    expect(await stateOf(id)).toMatchObject({ state: 'Ready', message: null });
    expect((await call(w.node.token, 'GET', '/node/clips')).json()).toEqual([]);
  });

  it('ignores a report from a node that does not hold the clip', async () => {
    const { id } = await createClip();
    const otherNode = await t.createNode(w.admin);
    await clipReport(id, { state: 'Ready', duration: 1, size: 1 }, otherNode.token);
    expect((await stateOf(id)).state).toBe('Pending');
  });

  it('has one winner when Ready and Error race', async () => {
    const { id } = await createClip();
    await Promise.all([
      clipReport(id, { state: 'Ready', duration: 30, size: 10 }),
      clipReport(id, { state: 'Error', message: 'the window moved on' }),
    ]);
    const clip = await stateOf(id);
    expect(['Ready', 'Error']).toContain(clip.state);
    expect(clip.state === 'Ready' ? clip.message : clip.size).toBeNull();
  });

  it('puts a clip no node finished within 60 s in Error, with the reason', async () => {
    const { id } = await createClip();
    w.clock.advance(61_000);
    await t.app.services.clips.expireOverdue();
    expect(await stateOf(id)).toMatchObject({ state: 'Error', message: 'No media node finished the clip within 60 s' });
  });

  it('writes clip.ready and clip.error webhooks to the callback URI, signed like the others', async () => {
    const ready = await createClip({ callbackUri: 'https://hooks.example.com/clips' });
    const failed = await createClip({ callbackUri: 'https://hooks.example.com/clips' });
    await clipReport(ready.id, { state: 'Ready', duration: 30, size: 10 });
    await clipReport(failed.id, { state: 'Error', message: 'from is no longer in the rewind window' });
    const deliveries = (await call(w.owner.token, 'GET', `/webhooks/deliveries?streamId=${w.streamId}`)).json();
    const types = deliveries.map((delivery: { type: string; resourceId: string }) => [
      delivery.type,
      delivery.resourceId,
    ]);
    expect(types).toEqual(
      expect.arrayContaining([
        ['clip.ready', ready.id],
        ['clip.error', failed.id],
      ]),
    );
  });

  it('refuses to delete a clip still being cut (409), and links only to a Ready clip', async () => {
    const { id } = await createClip();
    expect((await call(w.owner.token, 'DELETE', `/clips/${id}`)).statusCode).toBe(409);
    const early = await call(w.owner.token, 'POST', `/clips/${id}/playback`);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(CLIP_MESSAGES.notReady('Pending'));
    await clipReport(id, { state: 'Ready', duration: 30, size: 10, objectKey: `live/clips/${id}.mp4` });
    const links = await call(w.owner.token, 'POST', `/clips/${id}/playback`);
    expect(links.statusCode, links.body).toBe(200);
    expect(links.json().downloadUrl).toMatch(new RegExp(`^/api/v1/clips/${id}/file\\?token=`));
    const forged = await t.request({ method: 'GET', url: `/api/v1/clips/${id}/file?token=rf1.save.1.x` });
    expect(forged.statusCode).toBe(403);
    expect((await call(w.other.token, 'POST', `/clips/${id}/playback`)).statusCode).toBe(404);
  });
});
