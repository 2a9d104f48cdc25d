import { randomUUID } from 'node:crypto';
import { MP4_TOOLTIP } from '@streamcloud/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { expectValidationError, signedIn, useTestApp } from '../../../test/helpers.js';
import { StreamJobWorld, streamJobAccessTests, streamJobLostNodeTests } from '../../../test/stream-jobs.js';

const t = useTestApp(() => ({ clock: w.clock }), { roles: true });
const w = new StreamJobWorld(t, { path: 'recordings', reportKind: 'recording-state', reportKey: 'recordingId' });
const { call, createStorage, createStream, report, stateOf } = w;
let storageId: string;

const capture = { source: 'Incoming', tracks: [{ type: 'Video' }, { type: 'Audio' }] };
const body = (overrides: object = {}) => ({ streamId: w.streamId, storageId, capture, ...overrides });

const createRecording = async (overrides: object = {}, token = w.owner.token) => {
  const response = await call(token, 'POST', '/recordings', body(overrides));
  if (response.statusCode !== 201) throw new Error(`recording: ${response.statusCode} ${response.body}`);
  return response.json();
};

beforeEach(async () => {
  await w.setUp();
  storageId = await createStorage(w.owner.token);
});

describe('role matrix', () => {
  streamJobAccessTests(w, {
    create: (streamId) => body({ streamId }),
    update: () => ({ fileName: 'renamed_{uuid}', storageId, capture }),
    createJob: async () => (await createRecording()).id,
    moreRows: [{ name: 'GET /recordings', call: () => ['GET', '/api/v1/recordings'], expected: signedIn(200) }],
  });

  it("refuses another account's storage with 404, for a USER and an impersonating ADMIN", async () => {
    const bobs = await createStorage(w.other.token, 'Not yours');
    for (const token of [w.owner.token, w.tokens['ADMIN impersonating owner']]) {
      const response = await call(token, 'POST', '/recordings', body({ storageId: bobs }));
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Storage not found');
    }
    const recording = await createRecording();
    const update = await call(w.owner.token, 'PUT', `/recordings/${recording.id}`, {
      fileName: 'x',
      storageId: bobs,
      capture,
    });
    expect(update.statusCode).toBe(404);
    expect((await call(w.owner.token, 'POST', '/recordings', body({ storageId: randomUUID() }))).statusCode).toBe(404);
  });

  it("refuses an ADMIN a storage of another account than the stream's (400)", async () => {
    const bobs = await createStorage(w.other.token, 'Bob');
    const response = await call(w.admin.token, 'POST', '/recordings', body({ storageId: bobs }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'STORAGE_OF_ANOTHER_ACCOUNT' });
  });

  it('records the impersonating admin in the audit log', async () => {
    const recording = await createRecording({}, w.tokens['ADMIN impersonating owner']);
    const entry = (await t.auditLog(20)).find((row) => row.action === 'recording.create');
    expect(entry).toMatchObject({ actor_id: w.owner.id, acting_admin_id: w.admin.id, target_id: recording.id });
  });
});

describe('POST /recordings', () => {
  it('creates with the defaults: uuid template, MKV, no autostart, state Recording', async () => {
    const recording = await createRecording();
    expect(recording).toMatchObject({
      streamId: w.streamId,
      storageId,
      fileName: '{uuid}',
      fileFormat: 'MKV',
      autostart: false,
      callbackUri: null,
      state: 'Recording',
      duration: 0,
      length: 0,
      uploaded: 0,
      stopRequested: false,
      capture: {
        source: 'Incoming',
        tracks: [
          { type: 'Video', idx: null, codec: null, resolution: null, bitrate: null },
          { type: 'Audio', idx: null, codec: null, resolution: null, bitrate: null },
        ],
      },
    });
    expect(recording.messages[0]).toMatchObject({ level: 'info', text: 'Created by alice' });
  });

  it('applies the file name rules of the form: blank → uuid, autostart without placeholders → uuid appended', async () => {
    expect((await createRecording({ fileName: '   ' })).fileName).toBe('{uuid}');
    expect((await createRecording({ fileName: 'show', autostart: true })).fileName).toBe('show_{uuid}');
    expect((await createRecording({ fileName: 'show_{year}', autostart: true })).fileName).toBe('show_{year}');
    expect((await createRecording({ fileName: 'show' })).fileName).toBe('show');
  });

  it.each([
    [{ fileName: 'f'.repeat(256) }, 'body.fileName', 'File name must be at most 255 characters'],
    [{ fileName: 'a/b' }, 'body.fileName', 'File name must not contain /, \\ or control characters'],
    [{ fileFormat: 'AVI' }, 'body.fileFormat', 'File format must be MKV or MP4'],
    [
      { fileFormat: 'MP4', capture: { source: 'Incoming', tracks: [{ type: 'Video', codec: 'VP8' }] } },
      'body.capture.tracks.0.codec',
      MP4_TOOLTIP,
    ],
    [
      { capture: { source: 'Incoming', tracks: [{ type: 'Audio', bitrate: { condition: 'Greater', value: 0 } }] } },
      'body.capture.tracks.0.bitrate.value',
      'Bitrate must be above 0 for an Approximate, Greater or Less condition',
    ],
    [{ capture: { source: 'Incoming', tracks: [] } }, 'body.capture.tracks', 'Choose at least one track'],
    [
      { callbackUri: `https://x.example/${'a'.repeat(250)}` },
      'body.callbackUri',
      'Callback URI must be at most 255 characters',
    ],
    [{ storageId: '' }, 'body.storageId', 'Storage is required'],
    [{ surprise: 1 }, 'body', undefined],
  ])('answers 400 for %j', async (overrides, path, message) => {
    expectValidationError(await call(w.owner.token, 'POST', '/recordings', body(overrides)), path, message);
  });
});

describe('reads', () => {
  it("lists a stream's recordings autostarting first; profile=ACTIVE answers Recording and Uploading only", async () => {
    const first = await createRecording({ fileName: 'first' });
    const auto = await createRecording({ fileName: 'auto_{uuid}', autostart: true });
    const uploading = await createRecording({ fileName: 'uploading' });
    const done = await createRecording({ fileName: 'done' });
    const failed = await createRecording({ fileName: 'failed' });
    await report(uploading.id, { state: 'Uploading' });
    await report(done.id, { state: 'Completed' });
    await report(failed.id, { state: 'Error' });
    const all = (await call(w.owner.token, 'GET', `/recordings/stream/${w.streamId}`)).json();
    expect(all.map((r: { id: string }) => r.id)).toEqual([auto.id, first.id, uploading.id, done.id, failed.id]);
    const active = (await call(w.owner.token, 'GET', `/recordings/stream/${w.streamId}?profile=ACTIVE`)).json();
    expect(active.map((r: { id: string }) => r.id)).toEqual([auto.id, first.id, uploading.id]);
    const listed = await call(w.owner.token, 'GET', '/recordings?profile=ACTIVE');
    expect(listed.headers['x-total-count']).toBe('3');
    expect((await call(w.owner.token, 'GET', '/recordings?profile=ALL')).statusCode).toBe(400);
  });

  it("shows a USER only its own recordings; an ADMIN every account's", async () => {
    await createRecording();
    const bobsStream = await createStream(w.other.token);
    const bobsStorage = await createStorage(w.other.token);
    await createRecording({ streamId: bobsStream, storageId: bobsStorage }, w.other.token);
    expect((await call(w.owner.token, 'GET', '/recordings')).json()).toHaveLength(1);
    expect((await call(w.other.token, 'GET', '/recordings')).json()).toHaveLength(1);
    const everything = await call(w.admin.token, 'GET', '/recordings');
    expect(everything.json()).toHaveLength(2);
    expect(everything.headers['x-total-count']).toBe('2');
  });
});

describe('PUT /recordings/{id}', () => {
  it('changes file name, storage, callback URI and capture; the name keeps the autostart rule', async () => {
    const recording = await createRecording({ autostart: true, callbackUri: 'https://hooks.example/rec' });
    const second = await createStorage(w.owner.token, 'Second');
    const response = await call(w.owner.token, 'PUT', `/recordings/${recording.id}`, {
      streamId: w.streamId,
      fileName: 'evening',
      fileFormat: 'MKV',
      autostart: true,
      storageId: second,
      capture: { source: 'Outgoing', tracks: [{ type: 'Video', idx: 0 }] },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      fileName: 'evening_{uuid}',
      storageId: second,
      callbackUri: null,
      capture: { source: 'Outgoing', tracks: [{ type: 'Video', idx: 0 }] },
    });
  });

  it('keeps file format and autostart fixed (400)', async () => {
    const recording = await createRecording({ fileFormat: 'MP4' });
    const change = (fields: object) =>
      call(w.owner.token, 'PUT', `/recordings/${recording.id}`, { fileName: 'x', storageId, capture, ...fields });
    const format = await change({ fileFormat: 'MKV' });
    expect(format.statusCode).toBe(400);
    expect(format.json().message).toBe('File format can be set only when the recording is created');
    const autostart = await change({ autostart: true });
    expect(autostart.json().message).toBe('Autostart can be set only when the recording is created');
    const otherStream = await change({ streamId: await createStream(w.owner.token) });
    expect(otherStream.statusCode).toBe(400);
    const codec = await change({ capture: { source: 'Incoming', tracks: [{ type: 'Audio', codec: 'Opus' }] } });
    expect(codec.statusCode).toBe(400);
    expect(codec.json().message).toBe(MP4_TOOLTIP);
  });
});

describe('states reported by nodes, stop and delete', () => {
  it('goes Recording → Uploading → Completed with duration, length, uploaded bytes and messages', async () => {
    const recording = await createRecording();
    await report(recording.id, { duration: 12.5, length: 1_000_000, messages: [{ level: 'info', text: 'Writing' }] });
    await report(recording.id, { state: 'Uploading', uploaded: 500_000 });
    await report(recording.id, { state: 'Completed', uploaded: 1_000_000 });
    const done = (await call(w.owner.token, 'GET', `/recordings/${recording.id}`)).json();
    expect(done).toMatchObject({ state: 'Completed', duration: 12.5, length: 1_000_000, uploaded: 1_000_000 });
    expect(done.messages.map((message: { text: string }) => message.text)).toEqual(['Writing', 'Created by alice']);
  });

  it('allows stop only in Recording, once; the node then uploads', async () => {
    const recording = await createRecording();
    const stopped = await call(w.owner.token, 'PUT', `/recordings/${recording.id}/stop`);
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json()).toMatchObject({ state: 'Recording', stopRequested: true });
    expect(stopped.json().messages[0].text).toBe('Stopped by alice');
    const again = await call(w.owner.token, 'PUT', `/recordings/${recording.id}/stop`);
    expect(again.statusCode).toBe(200);
    expect(again.json().messages.filter((m: { text: string }) => m.text.startsWith('Stopped'))).toHaveLength(1);
    for (const state of ['Uploading', 'Completed']) {
      await report(recording.id, { state });
      const refused = await call(w.owner.token, 'PUT', `/recordings/${recording.id}/stop`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(`A recording can be stopped only while Recording; it is ${state}`);
    }
    const failed = await createRecording();
    await report(failed.id, { state: 'Error' });
    expect((await call(w.owner.token, 'PUT', `/recordings/${failed.id}/stop`)).statusCode).toBe(409);
  });

  it('allows delete only in Completed or Error', async () => {
    const recording = await createRecording();
    for (const state of ['Recording', 'Uploading']) {
      if (state !== 'Recording') await report(recording.id, { state });
      const refused = await call(w.owner.token, 'DELETE', `/recordings/${recording.id}`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(`A recording can be deleted only when Completed or Error; it is ${state}`);
    }
    await report(recording.id, { state: 'Completed' });
    expect((await call(w.owner.token, 'DELETE', `/recordings/${recording.id}`)).statusCode).toBe(204);
    expect((await call(w.owner.token, 'GET', `/recordings/${recording.id}`)).statusCode).toBe(404);
    const failed = await createRecording();
    await report(failed.id, { state: 'Error' });
    expect((await call(w.owner.token, 'DELETE', `/recordings/${failed.id}`)).statusCode).toBe(204);
  });

  it('ignores a state the rules do not allow, and reports from a node that does not serve the stream', async () => {
    const recording = await createRecording();
    await report(recording.id, { state: 'Uploading' });
    await report(recording.id, { state: 'Recording', duration: 99 });
    expect(await stateOf(recording.id)).toBe('Uploading');
    await report(recording.id, { state: 'Completed' });
    await report(recording.id, { state: 'Uploading' });
    await report(recording.id, { state: 'Recording' });
    expect(await stateOf(recording.id)).toBe('Completed');

    const stranger = await t.createNode(w.admin, { enabled: false });
    const fresh = await createRecording();
    await report(fresh.id, { state: 'Error' }, stranger.token);
    expect(await stateOf(fresh.id)).toBe('Recording');
  });

  it('starts an autostarting recording again after Completed until it is stopped', async () => {
    const recording = await createRecording({ autostart: true });
    await report(recording.id, { state: 'Completed', duration: 10, length: 10, uploaded: 10 });
    await report(recording.id, { state: 'Recording', duration: 1 });
    const again = (await call(w.owner.token, 'GET', `/recordings/${recording.id}`)).json();
    expect(again).toMatchObject({ state: 'Recording', duration: 1, length: 0, uploaded: 0 });
    await call(w.owner.token, 'PUT', `/recordings/${recording.id}/stop`);
    await report(recording.id, { state: 'Completed' });
    await report(recording.id, { state: 'Recording' });
    expect(await stateOf(recording.id)).toBe('Completed');
  });
});

describe('a run cut while its push went on (a restart, a file it could not write)', () => {
  const listOfStream = async () =>
    (await call(w.owner.token, 'GET', `/recordings/stream/${w.streamId}`)).json() as Array<{
      id: string;
      fileName: string;
      fileFormat: string;
      state: string;
      messages: Array<{ text: string }>;
    }>;

  it('goes on in a continuation with the same settings and a new file name, once, whatever the report repeats', async () => {
    const recording = await createRecording({ fileName: 'show_{streamId}', fileFormat: 'MP4' });
    await report(recording.id, { state: 'Uploading', interrupted: true });
    await report(recording.id, { state: 'Uploading', interrupted: true });
    await report(recording.id, { state: 'Completed', interrupted: true });
    const [continuation, ...others] = (await listOfStream()).filter((r) => r.id !== recording.id);
    expect(others).toEqual([]);
    expect(continuation).toMatchObject({ state: 'Recording', fileName: 'show_{streamId}_{uuid}', fileFormat: 'MP4' });
    expect(continuation?.messages.map((m) => m.text)).toEqual([
      `Continues recording ${recording.id}, which the restart of node ${w.node.name} cut`,
    ]);
    const cut = (await call(w.owner.token, 'GET', `/recordings/${recording.id}`)).json();
    expect(cut.state).toBe('Completed');
    expect(cut.messages.map((m: { text: string }) => m.text)).toContain(`Goes on in recording ${continuation?.id}`);
    // The continuation is what the node runs next.
    const forNode = await t.request({ method: 'GET', url: '/api/v1/node/recordings', token: w.node.token });
    expect(forNode.json().map((r: { id: string }) => r.id)).toContain(continuation?.id);
  });

  it('goes on once when one batch carries several reports of the cut run', async () => {
    const recording = await createRecording();
    await report(recording.id, { state: 'Recording', duration: 3 });
    const at = new Date().toISOString();
    const batch = await t.report(w.node.token, [
      {
        id: randomUUID(),
        kind: 'recording-state',
        recordingId: recording.id,
        at,
        state: 'Uploading',
        interrupted: true,
      },
      {
        id: randomUUID(),
        kind: 'recording-state',
        recordingId: recording.id,
        at,
        state: 'Completed',
        interrupted: true,
      },
    ]);
    expect(batch.statusCode).toBeLessThan(300);
    expect((await listOfStream()).filter((r) => r.id !== recording.id).map((r) => r.state)).toEqual(['Recording']);
  });

  it('goes on, saying why, when its node could not write its file (a full disk)', async () => {
    const recording = await createRecording();
    await report(recording.id, { state: 'Recording', duration: 3 });
    await report(recording.id, { state: 'Uploading', interrupted: true, interruptedBy: 'write' });
    const [continuation] = (await listOfStream()).filter((r) => r.id !== recording.id);
    expect(continuation?.messages.map((m) => m.text)).toEqual([
      `Continues recording ${recording.id}, whose file node ${w.node.name} could not write (its disk full or failing)`,
    ]);
    // Another cause is refused, naming the field; nothing changes.
    const bad = await t.report(w.node.token, [
      {
        id: randomUUID(),
        kind: 'recording-state',
        recordingId: continuation?.id,
        interrupted: true,
        interruptedBy: 'disk',
      },
    ]);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('interruptedBy');
    expect(await stateOf(continuation?.id ?? '')).toBe('Recording');
  });

  it('goes on when its node, back after its silence put the recording in Error, reports the cut run (once)', async () => {
    const recording = await createRecording();
    await report(recording.id, { state: 'Recording', duration: 0 });
    w.clock.shift(60_000);
    expect(await t.app.services.recordings.expireLostNodes(15_000)).toBe(1);
    // Its file could not be read after the restart: Error again, and the recording goes on all the same.
    await report(recording.id, { state: 'Error', interrupted: true });
    await report(recording.id, { state: 'Error', interrupted: true });
    const continuations = (await listOfStream()).filter((r) => r.id !== recording.id);
    expect(continuations.map((r) => r.state)).toEqual(['Recording']);
  });

  it('does not go on when it was stopped, when it autostarts (its next run does), or without the flag', async () => {
    const stopped = await createRecording();
    await call(w.owner.token, 'PUT', `/recordings/${stopped.id}/stop`);
    await report(stopped.id, { state: 'Uploading', interrupted: true });
    const autostarting = await createRecording({ autostart: true });
    await report(autostarting.id, { state: 'Uploading', interrupted: true });
    const plain = await createRecording();
    await report(plain.id, { state: 'Uploading' });
    expect((await listOfStream()).map((r) => r.id).sort()).toEqual([stopped.id, autostarting.id, plain.id].sort());
  });
});

describe('the file a node writes', () => {
  it("keeps the key of the run's file as the node tells it, and forgets it when a new run starts", async () => {
    const recording = await createRecording({ autostart: true });
    expect(recording.objectKey).toBeNull();
    await report(recording.id, { objectKey: 'live/show_1.mp4', duration: 1 });
    await report(recording.id, { state: 'Completed', objectKey: 'live/show_1.mp4', length: 100, uploaded: 100 });
    const done = (await call(w.owner.token, 'GET', `/recordings/${recording.id}`)).json();
    expect(done).toMatchObject({ state: 'Completed', objectKey: 'live/show_1.mp4', length: 100 });
    await report(recording.id, { state: 'Recording' });
    expect((await call(w.owner.token, 'GET', `/recordings/${recording.id}`)).json().objectKey).toBeNull();
    await report(recording.id, { objectKey: 'live/show_2.mp4' });
    expect((await call(w.owner.token, 'GET', `/recordings/${recording.id}`)).json().objectKey).toBe('live/show_2.mp4');
  });

  it('refuses an object key over 1024 characters (400 naming the field)', async () => {
    const recording = await createRecording();
    const response = await t.report(w.node.token, [
      { id: randomUUID(), kind: 'recording-state', recordingId: recording.id, objectKey: 'k'.repeat(1025) },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('objectKey must be at most 1024 characters');
    expect((await call(w.owner.token, 'GET', `/recordings/${recording.id}`)).json().objectKey).toBeNull();
  });
});

describe('a node that is gone (the stuck-item rule)', () => {
  streamJobLostNodeTests(w, {
    createJob: async () => (await createRecording()).id,
    expire: (silenceMs) => t.app.services.recordings.expireLostNodes(silenceMs),
    noun: 'recording',
    running: 'Recording',
    recoverable: true,
  });
});

describe('node-facing GET /node/recordings', () => {
  it('answers what the node runs or finishes, with the file name template and the storage credentials', async () => {
    const running = await createRecording({ fileName: 'show_{datetime}', fileFormat: 'MP4' });
    const auto = await createRecording({ autostart: true });
    const done = await createRecording();
    await report(done.id, { state: 'Completed' });
    await report(auto.id, { state: 'Completed' });
    const otherNode = await t.createNode(w.admin);
    const list = (await call(w.node.token, 'GET', '/node/recordings')).json();
    expect(list.map((r: { id: string }) => r.id).sort()).toEqual([running.id, auto.id].sort());
    const stream = (await call(w.owner.token, 'GET', `/inputs/${w.streamId}`)).json();
    expect(list.find((r: { id: string }) => r.id === running.id)).toMatchObject({
      streamId: w.streamId,
      streamName: stream.name,
      fileName: 'show_{datetime}',
      fileFormat: 'MP4',
      stopRequested: false,
      storage: {
        type: 'AmazonS3',
        bucket: 'media',
        path: 'live',
        accessKeyId: 'AKIDEXAMPLE',
        secretAccessKey: 'very-secret-key',
      },
    });
    expect((await call(otherNode.token, 'GET', '/node/recordings')).json()).toEqual([]);
  });
});

describe('storages and deletion', () => {
  it('refuses to delete a storage a recording uses (409), until the recording is deleted', async () => {
    const recording = await createRecording();
    const refused = await call(w.owner.token, 'DELETE', `/storages/${storageId}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('The storage is used by 1 recording and cannot be deleted');
    await report(recording.id, { state: 'Completed' });
    await call(w.owner.token, 'DELETE', `/recordings/${recording.id}`);
    expect((await call(w.owner.token, 'DELETE', `/storages/${storageId}`)).statusCode).toBe(204);
  });

  it('deletes the recordings with their stream, and an account with its streams, recordings and storages', async () => {
    const recording = await createRecording();
    expect((await call(w.owner.token, 'DELETE', `/inputs/${w.streamId}`)).statusCode).toBe(204);
    expect((await call(w.owner.token, 'GET', `/recordings/${recording.id}`)).statusCode).toBe(404);

    const stream = await createStream(w.owner.token);
    await createRecording({ streamId: stream });
    expect((await call(w.admin.token, 'DELETE', `/accounts/${w.owner.id}`)).statusCode).toBe(204);
    expect((await call(w.admin.token, 'GET', '/recordings')).json()).toEqual([]);
  });
});
