import { randomUUID } from 'node:crypto';
import { expect, it, vi } from 'vitest';
import { StreamJobsRepository } from '../src/modules/stream-jobs/stream-jobs.repository.js';
import {
  type MatrixRow,
  type Method,
  ownerOnly,
  type Roles,
  roleMatrixTests,
  type TestApp,
  TestClock,
} from './helpers.js';

/** Recordings and relays: jobs on a stream that the stream's node runs and reports on. */
export interface StreamJobKind {
  /** Where the API serves them, under /api/v1 and /api/v1/node. */
  path: 'recordings' | 'relays';
  /** The node report about one, and its field naming the job. */
  reportKind: 'recording-state' | 'relay-state';
  reportKey: 'recordingId' | 'relayId';
}

/**
 * What a stream job's test file works with: the role matrix's accounts (`useTestApp(..., { roles: true })`),
 * a node serving alice's stream, and calls by token. `setUp()` in a `beforeEach` makes the node and the
 * stream anew.
 */
export class StreamJobWorld {
  /** The app's clock (`useTestApp(() => ({ clock: world.clock }))`): the real one, which tokens are checked against, shifted by the tests; each test starts unshifted. */
  readonly clock = new TestClock();
  node!: { id: string; name: string; token: string };
  /** alice's stream, served by `node`. */
  streamId!: string;

  get roles(): Roles {
    return this.t.roles;
  }
  get owner() {
    return this.roles.owner;
  }
  get other() {
    return this.roles.other;
  }
  get admin() {
    return this.roles.admin;
  }
  get tokens() {
    return this.roles.tokens;
  }

  constructor(
    readonly t: TestApp,
    readonly kind: StreamJobKind,
  ) {}

  async setUp(): Promise<void> {
    this.node = await this.t.createNode(this.roles.admin);
    this.streamId = await this.createStream(this.roles.owner.token);
  }

  /** One call under /api/v1 with a user's token, a node's or none. */
  call = (token: string | undefined, method: Method, url: string, payload?: object) =>
    this.t.request({ method, url: `/api/v1${url}`, token, ...(payload ? { payload } : {}) });

  createStream = async (token: string): Promise<string> => (await this.t.createInput({ format: 'RTMP' }, token)).id;

  /** An S3 storage of the caller's account (not checked against a bucket): its id. */
  createStorage = async (token: string, name = 'Bucket'): Promise<string> => {
    const response = await this.call(token, 'POST', '/storages?check=false', {
      name,
      type: 'AmazonS3',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'very-secret-key',
      bucket: 'media',
      path: 'live',
    });
    if (response.statusCode !== 201) throw new Error(`storage: ${response.statusCode} ${response.body}`);
    return response.json().id as string;
  };

  /** A state report about one job, from this world's node unless told otherwise. */
  report = async (id: string, fields: object, nodeToken = this.node.token): Promise<void> => {
    const response = await this.t.report(nodeToken, [
      { id: randomUUID(), kind: this.kind.reportKind, [this.kind.reportKey]: id, ...fields },
    ]);
    expect(response.statusCode, response.body).toBe(200);
  };

  stateOf = async (id: string): Promise<string> =>
    (await this.call(this.roles.owner.token, 'GET', `/${this.kind.path}/${id}`)).json().state;
}

/**
 * The role matrix of a stream job's endpoints (create, the stream's list, read, change, stop, delete and
 * the node's list), and the 404 for a stream the caller does not own.
 */
export function streamJobAccessTests(
  world: StreamJobWorld,
  jobs: {
    /** The body creating one on `streamId`. */
    create: (streamId: string) => object;
    /** A body of PUT /{id} that changes it. */
    update: () => object;
    /** Makes one as the owner; answers its id. */
    createJob: () => Promise<string>;
    /** Rows of endpoints the other kind lacks. */
    moreRows?: MatrixRow<string>[];
  },
): void {
  const base = `/api/v1/${world.kind.path}`;
  roleMatrixTests<string>(
    [
      {
        name: `POST /${world.kind.path}`,
        call: () => ['POST', base, jobs.create(world.streamId)],
        expected: ownerOnly(201),
      },
      {
        name: `GET /${world.kind.path}/stream/{streamId}`,
        call: () => ['GET', `${base}/stream/${world.streamId}`],
        expected: ownerOnly(200),
      },
      {
        name: `GET /${world.kind.path}/stream/{streamId}?profile=ACTIVE`,
        call: () => ['GET', `${base}/stream/${world.streamId}?profile=ACTIVE`],
        expected: ownerOnly(200),
      },
      { name: `GET /${world.kind.path}/{id}`, call: (id) => ['GET', `${base}/${id}`], expected: ownerOnly(200) },
      {
        name: `PUT /${world.kind.path}/{id}`,
        call: (id) => ['PUT', `${base}/${id}`, jobs.update()],
        expected: ownerOnly(200),
      },
      {
        name: `PUT /${world.kind.path}/{id}/stop`,
        call: (id) => ['PUT', `${base}/${id}/stop`],
        expected: ownerOnly(200),
      },
      {
        name: `DELETE /${world.kind.path}/{id}`,
        prepare: (id) => world.report(id, { state: 'Completed' }),
        call: (id) => ['DELETE', `${base}/${id}`],
        expected: ownerOnly(204),
      },
      ...(jobs.moreRows ?? []),
    ],
    { roles: () => world.roles, subject: jobs.createJob },
  );

  it(`GET /node/${world.kind.path} answers a node token only`, async () => {
    const url = `/node/${world.kind.path}`;
    expect((await world.call(undefined, 'GET', url)).statusCode).toBe(401);
    expect((await world.call(world.roles.owner.token, 'GET', url)).statusCode).toBe(401);
    expect((await world.call(world.roles.admin.token, 'GET', url)).statusCode).toBe(401);
    expect((await world.call(world.node.token, 'GET', url)).statusCode).toBe(200);
  });

  it(`POST /${world.kind.path} answers 404 for a stream of another account or none`, async () => {
    const bobsStream = await world.createStream(world.roles.other.token);
    for (const streamId of [bobsStream, randomUUID()]) {
      const response = await world.call(world.roles.owner.token, 'POST', `/${world.kind.path}`, jobs.create(streamId));
      expect(response.statusCode, response.body).toBe(404);
    }
  });
}

/**
 * The stuck-item rule shared by recordings and relays: a running job whose node was deleted or has been
 * silent longer than the silence time moves to Error so it can be deleted; a recoverable kind's node that
 * comes back may still finish it.
 */
export function streamJobLostNodeTests(
  world: StreamJobWorld,
  jobs: {
    /** Makes one as the owner; answers its id. */
    createJob: () => Promise<string>;
    /** The stuck-item rule with a silence time; answers how many jobs moved. */
    expire: (silenceMs: number) => Promise<number>;
    noun: 'recording' | 'relay';
    running: 'Recording' | 'Relaying';
    /** Whether the node that comes back may still finish it (recordings). */
    recoverable: boolean;
  },
): void {
  const heartbeat = (token: string) =>
    world.t.report(token, [{ id: randomUUID(), kind: 'load', cpuPercent: 1, bandwidthMbps: 1, sessions: 0 }]);
  const get = async (id: string) => (await world.call(world.owner.token, 'GET', `/${world.kind.path}/${id}`)).json();
  const lostText = (why: string, deleted = false) =>
    `${why}: ${
      jobs.recoverable
        ? `the ${jobs.noun} cannot go on here (if the node comes back with its file, it is uploaded)`
        : deleted
          ? `the ${jobs.noun} is lost`
          : `the ${jobs.noun} stopped (it goes on if the node comes back while the stream is live there)`
    }`;

  it(`moves a running ${jobs.noun} of a node silent longer than the silence time to Error, so it can be deleted; one no node ran waits`, async () => {
    const running = await jobs.createJob();
    const waiting = await jobs.createJob();
    const stoppedWaiting = await jobs.createJob();
    await world.call(world.owner.token, 'PUT', `/${world.kind.path}/${stoppedWaiting}/stop`);
    await world.report(running, { state: jobs.running });
    world.clock.shift(10_000);
    await heartbeat(world.node.token);
    expect(await jobs.expire(15_000)).toBe(0);
    world.clock.shift(26_000);
    expect(await jobs.expire(15_000)).toBe(2);
    const job = await get(running);
    expect(job.state).toBe('Error');
    expect(job.messages[0]).toMatchObject({
      level: 'error',
      text: lostText(`Node ${world.node.name} stopped reporting for 15 s`),
    });
    // Nothing was lost of a job no node ran: it waits for its stream, or, stopped, is over.
    expect(await world.stateOf(waiting)).toBe(jobs.running);
    const stopped = await get(stoppedWaiting);
    expect(stopped.state).toBe('Completed');
    expect(stopped.messages[0]).toMatchObject({
      level: 'info',
      text: `Node ${world.node.name} stopped reporting for 15 s, and the ${jobs.noun} was stopped before it started: nothing was done`,
    });
    expect(await jobs.expire(15_000)).toBe(0);
    expect((await world.call(world.owner.token, 'DELETE', `/${world.kind.path}/${stoppedWaiting}`)).statusCode).toBe(
      204,
    );

    // The node comes back: a recording's file is still uploaded; a relay runs again; the waiting one starts.
    const listedIds = async () =>
      (await world.call(world.node.token, 'GET', `/node/${world.kind.path}`))
        .json()
        .map((job: { id: string }) => job.id)
        .sort();
    expect(await listedIds()).toEqual([running, waiting].sort());
    if (jobs.recoverable) {
      await world.report(running, { state: 'Uploading' });
      expect(await world.stateOf(running)).toBe('Uploading');
      await world.report(running, { state: 'Completed' });
      expect(await world.stateOf(running)).toBe('Completed');
      expect(await listedIds()).toEqual([waiting]);
    } else {
      // A lost relay does not end as if it had run (Completed); it runs again.
      await world.report(running, { state: 'Completed' });
      expect(await world.stateOf(running)).toBe('Error');
      await world.report(running, { state: jobs.running });
      expect(await world.stateOf(running)).toBe(jobs.running);
    }
  });

  it(`moves a running ${jobs.noun} to Error when the node that ran it is deleted; a waiting one moves with its stream`, async () => {
    const running = await jobs.createJob();
    const waiting = await jobs.createJob();
    await world.report(running, { state: jobs.running });
    expect((await world.call(world.admin.token, 'DELETE', `/nodes/${world.node.id}`)).statusCode).toBe(204);
    expect(await jobs.expire(15_000)).toBe(1);
    const job = await get(running);
    expect(job.state).toBe('Error');
    expect(job.messages[0].text).toBe(lostText(`Node ${world.node.name} was deleted`, true));
    expect(await world.stateOf(waiting)).toBe(jobs.running);
    expect((await world.call(world.owner.token, 'DELETE', `/${world.kind.path}/${running}`)).statusCode).toBe(204);
  });

  it(`keeps a ${jobs.noun} whose node reports while its silence is being judged`, async () => {
    const id = await jobs.createJob();
    await world.report(id, { state: jobs.running });
    world.clock.shift(20_000);
    // The node comes back between the read of the lost jobs and their change (a database just back, a busy API).
    const read = StreamJobsRepository.prototype.onLostNodes;
    const spy = vi.spyOn(StreamJobsRepository.prototype, 'onLostNodes').mockImplementation(async function (
      this: StreamJobsRepository<never, never, never>,
      since,
      onlyId,
    ) {
      const lost = await read.call(this, since, onlyId);
      if (onlyId === undefined) await heartbeat(world.node.token);
      return lost;
    });
    try {
      expect(await jobs.expire(15_000)).toBe(0);
    } finally {
      spy.mockRestore();
    }
    expect(await world.stateOf(id)).toBe(jobs.running);
  });

  it(`keeps the ${jobs.noun}s of a node that reports`, async () => {
    const id = await jobs.createJob();
    await world.report(id, { state: jobs.running });
    world.clock.shift(20_000);
    await heartbeat(world.node.token);
    expect(await jobs.expire(15_000)).toBe(0);
    expect(await world.stateOf(id)).toBe(jobs.running);
  });
}
