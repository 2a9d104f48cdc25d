import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { type MatrixRow, type Method, ownerOnly, type Roles, roleMatrixTests, type TestApp } from './helpers.js';

/** Recordings and relays: jobs on a stream that the stream's node runs and reports on. */
export interface StreamJobKind {
  /** Where the API serves them, under /api/v1 and /api/v1/node. */
  path: 'recordings' | 'relays';
  /** The node report about one, and its field naming the job. */
  reportKind: 'recording-state' | 'relay-state';
  reportKey: 'recordingId' | 'relayId';
}

/**
 * What a stream job's test file works with: the role matrix's accounts, a node serving alice's stream,
 * and calls by token. `setUp()` in a `beforeEach` makes them anew on an emptied database.
 */
export class StreamJobWorld {
  roles!: Roles;
  node!: { id: string; name: string; token: string };
  /** alice's stream, served by `node`. */
  streamId!: string;

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
    private readonly app: () => TestApp,
    readonly kind: StreamJobKind,
  ) {}

  async setUp(): Promise<void> {
    const t = this.app();
    await t.reset();
    this.roles = await t.roleMatrix();
    this.node = await t.createNode(this.roles.admin);
    this.streamId = await this.createStream(this.roles.owner.token);
  }

  /** One call under /api/v1 with a user's token, a node's or none. */
  call = (token: string | undefined, method: Method, url: string, payload?: object) =>
    this.app().request({ method, url: `/api/v1${url}`, token, ...(payload ? { payload } : {}) });

  createStream = async (token: string): Promise<string> => {
    const response = await this.call(token, 'POST', '/inputs', { format: 'RTMP' });
    if (response.statusCode !== 201) throw new Error(`stream: ${response.statusCode} ${response.body}`);
    return response.json().id;
  };

  /** A state report about one job, from this world's node unless told otherwise. */
  report = async (id: string, fields: object, nodeToken = this.node.token): Promise<void> => {
    const response = await this.app().report(nodeToken, [
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
