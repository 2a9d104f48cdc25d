import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { expectValidationError, ownerOnly, roleMatrixTests, useTestApp } from '../../../test/helpers.js';
import { StreamJobWorld } from '../../../test/stream-jobs.js';

const t = useTestApp(() => ({ clock: w.clock }), { roles: true });
// The stream world of stream jobs: a node serving alice's stream, the role matrix's accounts, calls by token.
const w = new StreamJobWorld(t, { path: 'recordings', reportKind: 'recording-state', reportKey: 'recordingId' });
const { call } = w;

const STARTED = '2026-11-29T08:00:00.000Z';
const ENDED = '2026-11-29T08:01:30.500Z';
/** What the node reports of the VOD it kept, and the API answers back as it was reported. */
const REPORTED = { startedAt: STARTED, endedAt: ENDED, duration: 90.5, size: 1_234_567 };

/** A node's `vod` report (Available unless told), from this world's node unless told. */
const vodReportBody = (fields: object = {}) => ({
  id: randomUUID(),
  kind: 'vod',
  vodId: randomUUID(),
  streamId: w.streamId,
  state: 'Available',
  ...REPORTED,
  ...fields,
});

const vodReport = async (fields: object = {}, nodeToken = w.node.token) => {
  const report = vodReportBody(fields);
  const response = await t.report(nodeToken, [report]);
  expect(response.statusCode, response.body).toBe(200);
  return report;
};
const listed = async (token = w.owner.token) => (await call(token, 'GET', `/vods?streamId=${w.streamId}`)).json();

beforeEach(async () => {
  await w.setUp();
});

describe('role matrix', () => {
  roleMatrixTests<string>(
    [
      {
        name: 'GET /vods?streamId',
        call: () => ['GET', `/api/v1/vods?streamId=${w.streamId}`],
        expected: ownerOnly(200),
      },
      { name: 'GET /vods/{id}', call: (id) => ['GET', `/api/v1/vods/${id}`], expected: ownerOnly(200) },
    ],
    { roles: () => w.roles, subject: async () => (await vodReport()).vodId },
  );
});

describe('a VOD reported by the node', () => {
  it('is listed with its times, size and the playlist through the Low latency output with a rewind window', async () => {
    await t.createOutput({ streamId: w.streamId, format: 'HLS' });
    const rewind = await t.createOutput({
      streamId: w.streamId,
      format: 'HLS',
      hlsLatency: 'Low',
      dvrWindowMinutes: 5,
    });
    const { vodId } = await vodReport();
    const [vod] = await listed();
    expect(vod).toEqual({
      id: vodId,
      streamId: w.streamId,
      state: 'Available',
      ...REPORTED,
      playlistUri: `${new URL(rewind.connection?.uri ?? '').origin}/hls/${encodeURIComponent(rewind.name)}/vod/index.m3u8`,
      outputId: rewind.id,
      recordings: [],
      createdAt: expect.any(String),
    });
    expect((await call(w.admin.token, 'GET', `/vods/${vodId}`)).json()).toEqual(vod);
  });

  it("plays through an output its node serves: not the first window's when an edge serves that one", async () => {
    const edge = await t.createNode(t.roles.admin);
    const onEdge = await t.createOutput({
      streamId: w.streamId,
      format: 'HLS',
      hlsLatency: 'Low',
      dvrWindowMinutes: 5,
    });
    await t.database.db.updateTable('outputs').set({ node_id: edge.id }).where('id', '=', onEdge.id).execute();
    await vodReport();
    expect((await listed())[0]).toMatchObject({ playlistUri: null, outputId: null });
    const here = await t.createOutput({ streamId: w.streamId, format: 'HLS', hlsLatency: 'Low', dvrWindowMinutes: 1 });
    expect((await listed())[0]).toMatchObject({
      playlistUri: expect.stringContaining(`/hls/${encodeURIComponent(here.name)}/vod/`),
      outputId: here.id,
    });
  });

  it('has no playlist while the stream has no output with a rewind window', async () => {
    await t.createOutput({ streamId: w.streamId, format: 'HLS', hlsLatency: 'Low' });
    await vodReport();
    expect(await listed()).toEqual([
      expect.objectContaining({ state: 'Available', playlistUri: null, outputId: null }),
    ]);
  });

  it('goes Evicted (final, no playlist) on its node’s report; a resent Available changes nothing', async () => {
    await t.createOutput({ streamId: w.streamId, format: 'HLS', hlsLatency: 'Low', dvrWindowMinutes: 5 });
    const first = await vodReport();
    await vodReport({ vodId: first.vodId, state: 'Evicted' });
    await vodReport({ vodId: first.vodId, duration: 1 });
    expect(await listed()).toEqual([
      expect.objectContaining({ id: first.vodId, state: 'Evicted', playlistUri: null, duration: 90.5 }),
    ]);
  });

  it("names the stream's Completed recordings of its time, not those still recording or of another time", async () => {
    const storage = await call(w.owner.token, 'POST', '/storages?check=false', {
      name: 'Bucket',
      type: 'AmazonS3',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'very-secret-key',
      bucket: 'media',
    });
    expect(storage.statusCode, storage.body).toBe(201);
    const record = async () => {
      const made = await call(w.owner.token, 'POST', '/recordings', {
        streamId: w.streamId,
        storageId: storage.json().id,
        fileFormat: 'MP4',
        capture: { source: 'Incoming', tracks: [{ type: 'Video' }] },
      });
      expect(made.statusCode, made.body).toBe(201);
      return made.json() as { id: string; fileName: string };
    };
    const completed = await record();
    await w.report(completed.id, { state: 'Completed' });
    await record(); // still Recording
    const now = Date.now();
    const during = await vodReport({
      startedAt: new Date(now - 60_000).toISOString(),
      endedAt: new Date(now + 60_000).toISOString(),
    });
    const before = await vodReport({ startedAt: '2020-01-01T00:00:00.000Z', endedAt: '2020-01-01T01:00:00.000Z' });
    const byId = new Map((await listed()).map((vod: { id: string }) => [vod.id, vod]));
    expect(byId.get(during.vodId)).toMatchObject({
      recordings: [{ id: completed.id, fileName: completed.fileName, fileFormat: 'MP4' }],
    });
    expect(byId.get(before.vodId)).toMatchObject({ recordings: [] });
    expect((await call(w.owner.token, 'GET', `/vods/${during.vodId}`)).json().recordings).toHaveLength(1);
  });

  it('lists the newest session first', async () => {
    const older = await vodReport();
    const newer = await vodReport({ startedAt: '2026-11-29T09:00:00.000Z', endedAt: '2026-11-29T09:05:00.000Z' });
    expect((await listed()).map((vod: { id: string }) => vod.id)).toEqual([newer.vodId, older.vodId]);
  });

  it('is not filed for a stream another node serves, nor evicted by another node', async () => {
    const otherNode = await t.createNode(w.admin);
    await vodReport({}, otherNode.token);
    expect(await listed()).toEqual([]);
    const kept = await vodReport();
    await vodReport({ vodId: kept.vodId, state: 'Evicted' }, otherNode.token);
    expect(await listed()).toEqual([expect.objectContaining({ id: kept.vodId, state: 'Available' })]);
  });

  it('is refused to a caller without a node token', async () => {
    for (const token of [undefined, w.owner.token, w.admin.token]) {
      const response = await call(token, 'POST', '/node/reports', {
        reports: [{ id: randomUUID(), kind: 'vod', vodId: randomUUID(), streamId: w.streamId }],
      });
      expect(response.statusCode).toBe(401);
    }
    expect(await listed()).toEqual([]);
  });
});

describe('bad input', () => {
  it('GET /vods needs a streamId that is a UUID; another account’s stream or VOD is 404', async () => {
    expectValidationError(await call(w.owner.token, 'GET', '/vods'), 'querystring.streamId');
    expectValidationError(
      await call(w.owner.token, 'GET', '/vods?streamId=nope'),
      'querystring.streamId',
      'Must be a UUID',
    );
    expectValidationError(await call(w.owner.token, 'GET', '/vods/nope'), 'params.id', 'Must be a UUID');
    const { vodId } = await vodReport();
    expect((await call(w.other.token, 'GET', `/vods?streamId=${w.streamId}`)).statusCode).toBe(404);
    expect((await call(w.other.token, 'GET', `/vods/${vodId}`)).statusCode).toBe(404);
    expect((await call(w.owner.token, 'GET', `/vods/${randomUUID()}`)).statusCode).toBe(404);
  });

  // [case, fields, the field the answer names, the rule it says when the contract words it]
  const badReports: [string, object, string, string][] = [
    ['a negative size', { size: -1 }, 'size', 'size must be at least 0'],
    ['a negative duration', { duration: -1 }, 'duration', 'duration must be at least 0'],
    ['an unknown state', { state: 'Gone' }, 'state', ''],
    ['a start that is no date-time', { startedAt: 'yesterday' }, 'startedAt', ''],
    ['a vodId that is no UUID', { vodId: 'nope' }, 'vodId', 'Must be a UUID'],
    ['an unknown field', { extra: 1 }, 'extra', ''],
  ];
  it.each(badReports)(
    'a vod report with %s is a 400 naming the field, nothing filed',
    async (_name, fields, field, message) => {
      const response = await t.report(w.node.token, [vodReportBody(fields)]);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.body).toContain(field);
      if (message) expect(response.body).toContain(message);
      expect(await listed()).toEqual([]);
    },
  );
});
