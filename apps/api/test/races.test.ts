import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { concurrently, raceForOne } from './concurrency.js';
import { type Method, type Roles, startTestApp, type TestApp } from './helpers.js';

// Every rule of the form "check, then write" holds when many requests arrive at once (issue 13): each
// of these sends the same request N times in the same tick and expects exactly one winner. On
// PostgreSQL the requests run on as many connections; on PGlite their statements interleave.
// (The last admin, the login throttle and username uniqueness have theirs in accounts and auth.)

const N = 8;
let t: TestApp;
let roles: Roles;
let node: { id: string; token: string };

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.reset();
  roles = await t.roleMatrix();
  node = await t.createNode(roles.admin);
});

const as = (token: string, method: Method, url: string, payload?: object) =>
  t.request({ method, url: `/api/v1${url}`, token, ...(payload ? { payload } : {}) });
const owner = (method: Method, url: string, payload?: object) => as(roles.owner.token, method, url, payload);
const admin = (method: Method, url: string, payload?: object) => as(roles.admin.token, method, url, payload);

/** Answers the created thing's id, failing the test on anything but 201. */
async function created(response: Promise<LightMyRequestResponse>): Promise<string> {
  const answer = await response;
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().id as string;
}

const createStream = () => created(owner('POST', '/inputs', { format: 'RTMP' }));
const createStorage = () =>
  created(
    owner('POST', '/storages?check=false', {
      name: 'Bucket',
      type: 'AmazonS3',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'very-secret-key',
      bucket: 'media',
    }),
  );
const capture = { source: 'Incoming', tracks: [{ type: 'Video' }, { type: 'Audio' }] };

/** A job on the stream, reported Completed by its node so it may be deleted. */
async function completedJob(path: 'recordings' | 'relays', streamId: string, body: object): Promise<string> {
  const id = await created(owner('POST', `/${path}`, { streamId, capture, ...body }));
  const kind = path === 'recordings' ? 'recording-state' : 'relay-state';
  const key = path === 'recordings' ? 'recordingId' : 'relayId';
  const report = await t.report(node.token, [{ id: randomUUID(), kind, [key]: id, state: 'Completed' }]);
  expect(report.statusCode, report.body).toBe(200);
  return id;
}

describe('concurrent deletes answer 204 once and 404 to the others', () => {
  const deleteOnce = (name: string, make: () => Promise<{ url: string; token?: () => string }>) =>
    it(name, async () => {
      const { url, token = () => roles.owner.token } = await make();
      await raceForOne(N, () => as(token(), 'DELETE', url), { winner: 204, losers: [404] });
    });

  deleteOnce('a stream', async () => ({ url: `/inputs/${await createStream()}` }));
  deleteOnce('an output', async () => ({
    url: `/outputs/${await created(owner('POST', '/outputs', { streamId: await createStream() }))}`,
  }));
  deleteOnce('a storage', async () => ({ url: `/storages/${await createStorage()}` }));
  deleteOnce('a fallback', async () => ({
    url: `/fallbacks/${await created(
      owner('POST', '/fallbacks', {
        streamId: await createStream(),
        type: 'Input',
        settings: { resources: [{ type: 'URL', data: 'srt://backup.example.com:9000' }] },
      }),
    )}`,
  }));
  deleteOnce('a recording', async () => ({
    url: `/recordings/${await completedJob('recordings', await createStream(), { storageId: await createStorage() })}`,
  }));
  deleteOnce('a relay', async () => ({
    url: `/relays/${await completedJob('relays', await createStream(), {
      format: 'RTMP',
      output: { server: 'rtmp://live.example.com/app' },
    })}`,
  }));
  deleteOnce('a node', async () => ({ url: `/nodes/${node.id}`, token: () => roles.admin.token }));
  deleteOnce('a node group', async () => ({
    url: `/node-groups/${await created(admin('POST', '/node-groups', { name: 'edge', assignment: 'Ingestion' }))}`,
    token: () => roles.admin.token,
  }));
});

describe('a storage deleted while recordings are created on it', () => {
  it('either refuses the delete (409) with the recordings kept, or refuses the recordings (404): never a 500', async () => {
    const streamId = await createStream();
    const storageId = await createStorage();
    const responses = await concurrently(N + 1, (index) =>
      index === N / 2
        ? owner('DELETE', `/storages/${storageId}`)
        : owner('POST', '/recordings', { streamId, storageId, capture }),
    );
    const deletion = responses[N / 2] as LightMyRequestResponse;
    const creations = responses.filter((_, index) => index !== N / 2);
    expect([204, 409], deletion.body).toContain(deletion.statusCode);
    for (const creation of creations) expect([201, 404], creation.body).toContain(creation.statusCode);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from recordings where storage_id = ${storageId}`.execute(t.database.db);
    const kept = creations.filter((creation) => creation.statusCode === 201).length;
    expect(rows[0]?.n).toBe(kept);
    if (deletion.statusCode === 204) expect(kept).toBe(0);
    else expect(kept).toBeGreaterThan(0);
  });
});

describe('one change of state wins', () => {
  it('concurrent stops of a live stream: one 200, the others 409, one "Stopped by" message', async () => {
    const streamId = await createStream();
    const live = await t.report(node.token, [
      { id: randomUUID(), kind: 'stream-state', streamId, status: 'Ingestion' },
    ]);
    expect(live.statusCode, live.body).toBe(200);
    await raceForOne(N, () => owner('PUT', `/inputs/${streamId}`, { state: 'Idle' }), { winner: 200, losers: [409] });
    const stream = (await owner('GET', `/inputs/${streamId}`)).json();
    expect(stream.status).toBe('Idle');
    const stops = (stream.statusMessages as Array<{ text: string }>).filter((message) =>
      message.text.startsWith('Stopped'),
    );
    expect(stops).toHaveLength(1);
  });

  it('concurrent stops of a relay and of a recording: each answers 200, one "Stopped by" message and one audit entry', async () => {
    const streamId = await createStream();
    const jobs = {
      relays: await created(
        owner('POST', '/relays', { streamId, format: 'UDPTS', output: { ipAddress: '127.0.0.1' } }),
      ),
      recordings: await created(owner('POST', '/recordings', { streamId, storageId: await createStorage(), capture })),
    };
    for (const [path, id] of Object.entries(jobs)) {
      const responses = await concurrently(N, () => owner('PUT', `/${path}/${id}/stop`));
      for (const response of responses) expect(response.statusCode, response.body).toBe(200);
      const job = (await owner('GET', `/${path}/${id}`)).json();
      expect(job.stopRequested).toBe(true);
      const stops = (job.messages as Array<{ text: string }>).filter((message) =>
        message.text.startsWith('Stopped by'),
      );
      expect(stops).toHaveLength(1);
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from audit_log where target_id = ${id} and action like '%stop%'`.execute(
        t.database.db,
      );
      expect(rows[0]?.n).toBe(1);
    }
  });

  it('concurrent GSLB provisioning of one stream: one ingress endpoint, the others 409', async () => {
    const streamId = await createStream();
    await raceForOne(N, () => owner('POST', '/gslb/input', { streamId }), { winner: 201, losers: [409] });
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from ingress_endpoints where input_id = ${streamId}`.execute(t.database.db);
    expect(rows[0]?.n).toBe(1);
  });
});
