import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Role, StreamInput, StreamOutput } from '@streamcloud/contract';
import { createNetGuard, loopbackOnly } from '@streamcloud/net-guard';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { type KyselyPlugin, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import { type AppOptions, buildApp } from '../src/app.js';
import { type DatabaseHandle, openDatabase } from '../src/db/database.js';
import type { Clock } from '../src/lib/clock.js';
import { TEMPLATE_DATABASE, withDatabase } from './global-setup.js';
import { DEFAULT_STUB_METADATA, type NodeStub, startNodeStub } from './node-stub.js';
import type { Caller, Method, Roles, TestAccount } from './role-matrix.js';

export * from './role-matrix.js';

/** Cheap scrypt for tests; the production cost is asserted in password.test.ts. */
export const TEST_SCRYPT = { N: 2 ** 10, r: 8, p: 1 };
export const TEST_PASSWORD = 'correct-horse-1';
/** The root secret of every test app (token and anti-forgery keys derive from it). */
export const TEST_SECRET = 'test-secret-of-at-least-32-characters!!';

/** A copy of the migrated PostgreSQL template on the test server (only with TEST_DATABASE_URL): its URL and a drop. */
export async function createServerDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = inject('databaseServerUrl');
  const name = `streamcloud_test_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${TEMPLATE_DATABASE}`);
  await admin.end();
  return {
    url: withDatabase(serverUrl, name),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/** A database for one test file: a fresh PGlite from the migrated dump, or a copy of the PostgreSQL template. */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  if (inject('databaseServerUrl')) {
    const created = await createServerDatabase();
    const handle = await openDatabase({ url: created.url });
    return {
      ...handle,
      close: async () => {
        await handle.close();
        await created.drop();
      },
    };
  }
  const dump = await readFile(inject('pgliteDumpPath'));
  return openDatabase({ memory: true, loadDataDir: new Blob([dump]) });
}

/**
 * Two API servers listening on 127.0.0.1, sharing one new PostgreSQL database (as API_WORKERS or two hosts
 * would): `work` gets their base URLs and apps; both are closed and the database dropped afterwards.
 */
export async function withTwoServers(
  work: (servers: [string, string], apps: [FastifyInstance, FastifyInstance]) => Promise<void>,
): Promise<void> {
  const database = await createServerDatabase();
  const servers = await Promise.all(
    ['one', 'two'].map(async () => {
      const handle = await openDatabase({ url: database.url });
      const app = await buildApp({
        database: handle,
        secret: TEST_SECRET,
        scryptCost: TEST_SCRYPT,
        outbound: { users: createNetGuard(loopbackOnly), operator: createNetGuard(loopbackOnly) },
      });
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      return { app, handle, url };
    }),
  );
  try {
    const [one, two] = servers as [(typeof servers)[0], (typeof servers)[0]];
    await work([one.url, two.url], [one.app, two.app]);
  } finally {
    for (const { app, handle } of servers) {
      await app.close();
      await handle.close();
    }
    await database.drop();
  }
}

/** PostgreSQL's SQLSTATE for a transaction ended to break a deadlock. */
const DEADLOCK_DETECTED = '40P01';

/** The public tables but the migrations record, by database (they never change within a run). */
const tablesOf = new WeakMap<DatabaseHandle, string[]>();

/**
 * Empties every table but the migrations record. One query asks which tables hold rows (a test writes to a
 * few of ~50), and those are emptied by DELETE with the foreign-key triggers off for the transaction
 * (`session_replication_role = replica`, so the order does not matter): a TRUNCATE makes new files for each
 * table and index, ~100 ms a test on PGlite against ~10 ms. Identities are not restarted (no test reads one).
 */
export async function resetDatabase(database: DatabaseHandle): Promise<void> {
  let tables = tablesOf.get(database);
  if (!tables) {
    const rows = await sql<{ tablename: string }>`
      select tablename from pg_tables where schemaname = 'public' and tablename <> 'schema_migrations'`.execute(
      database.db,
    );
    tables = rows.rows.map((row) => `"${row.tablename}"`);
    tablesOf.set(database, tables);
  }
  if (tables.length === 0) return;
  const filled = await sql<{ name: string }>`${sql.raw(
    tables.map((table) => `select '${table}' as name where exists (select 1 from ${table})`).join(' union all '),
  )}`.execute(database.db);
  if (filled.rows.length === 0) return;
  // The app of the last test keeps running (the webhook dispatcher, the periodic jobs): a transaction of it
  // can lock the rows in another order than the reset, and PostgreSQL then ends one of the two with a
  // deadlock error. When that is the reset, it is tried again (the app's side has gone by then).
  for (let attempt = 1; ; attempt += 1) {
    try {
      await database.db.transaction().execute(async (trx) => {
        await sql`set local session_replication_role = replica`.execute(trx);
        for (const { name } of filled.rows) await sql.raw(`delete from ${name}`).execute(trx);
      });
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== DEADLOCK_DETECTED || attempt === 3) throw error;
    }
  }
}

type App = Awaited<ReturnType<typeof buildApp>>;

/**
 * A clock the tests move: the real time (or `origin`) shifted by an offset. `useTestApp` puts it back to no
 * offset before each test.
 */
export class TestClock implements Clock {
  private offsetMs = 0;

  constructor(private readonly origin: () => number = Date.now) {}

  now = (): Date => new Date(this.origin() + this.offsetMs);

  /** Sets the clock `ms` ahead of its origin. */
  shift(ms: number): void {
    this.offsetMs = ms;
  }

  /** Moves the clock `ms` further. */
  advance(ms: number): void {
    this.offsetMs += ms;
  }

  reset(): void {
    this.offsetMs = 0;
  }
}

/** What a stream answers that the tests read. */
export type TestStream = StreamInput;

/**
 * One app on one database. A test file gets it from `useTestApp()`, which starts and closes it with the
 * file's own hooks; `startTestApp()` is for a test that needs an app of its own and closes it itself.
 */
export class TestApp {
  private started: { app: App; database: DatabaseHandle; clock: AppOptions['clock'] } | undefined;
  private queries = 0;
  private counter = 0;
  private rolesOfTest: Roles | undefined;

  constructor(private readonly options: Partial<AppOptions> | (() => Partial<AppOptions>) = {}) {}

  get app(): App {
    return this.need().app;
  }

  get database(): DatabaseHandle {
    return this.need().database;
  }

  /** The role matrix's accounts of the current test (`useTestApp(..., { roles: true })`). */
  get roles(): Roles {
    if (!this.rolesOfTest) throw new Error('No role matrix: call useTestApp(options, { roles: true })');
    return this.rolesOfTest;
  }

  async start(): Promise<this> {
    const database = await openTestDatabase();
    const countQueries: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        this.queries++;
        return args.result;
      },
    };
    const options = typeof this.options === 'function' ? this.options() : this.options;
    const app = await buildApp({
      database: { ...database, db: database.db.withPlugin(countQueries) },
      secret: TEST_SECRET,
      scryptCost: TEST_SCRYPT,
      loginFloodLimit: { max: 100_000, timeWindow: '1 minute' },
      // Test receivers all listen on 127.0.0.1: nothing a test does can reach another address.
      outbound: { users: createNetGuard(loopbackOnly), operator: createNetGuard(loopbackOnly) },
      ...options,
    });
    await app.ready();
    this.started = { app, database, clock: options.clock };
    return this;
  }

  close = async (): Promise<void> => {
    const started = this.started;
    this.started = undefined;
    if (!started) return;
    await started.app.close();
    await started.database.close();
  };

  /** Empties the database and puts a `TestClock` back; with `roles`, makes the role matrix's accounts anew. */
  reset = async (options: { roles?: boolean | undefined } = {}): Promise<void> => {
    if (this.need().clock instanceof TestClock) (this.need().clock as TestClock).reset();
    await resetDatabase(this.database);
    // Emptied behind the app's back: on PostgreSQL the notice of it may come after the next request.
    this.app.moduleContext.responseCache.invalidate();
    this.rolesOfTest = options.roles ? await this.roleMatrix() : undefined;
  };

  request = (opts: InjectOptions & { token?: string | undefined }): Promise<LightMyRequestResponse> => {
    const { token, headers, ...rest } = opts;
    return this.app.inject({
      ...rest,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    });
  };

  login = async (username: string, password: string): Promise<string> => {
    const response = await this.request({ method: 'POST', url: '/api/v1/login', payload: { username, password } });
    if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
    return response.json().token as string;
  };

  /** Creates an account directly through the service, then signs it in through the API. */
  createAccount = async (
    role: Role = 'USER',
    username = `user-${++this.counter}-${randomUUID().slice(0, 8)}`,
  ): Promise<TestAccount> => {
    const account = await this.app.services.accounts.create(null, { username, password: TEST_PASSWORD, role });
    return {
      id: account.id,
      username,
      password: TEST_PASSWORD,
      role,
      token: await this.login(username, TEST_PASSWORD),
    };
  };

  impersonate = async (admin: TestAccount, target: TestAccount): Promise<string> => {
    const response = await this.request({
      method: 'GET',
      url: `/api/v1/accounts/${target.id}/impersonate`,
      token: admin.token,
    });
    if (response.statusCode !== 200) throw new Error(`impersonation failed: ${response.statusCode} ${response.body}`);
    return response.json().token as string;
  };

  /** Registers a node through the API (enabled and opened unless told otherwise); answers its id and token. */
  createNode = async (admin: TestAccount, overrides: Record<string, unknown> = {}) => {
    const counter = ++this.counter;
    const response = await this.request({
      method: 'POST',
      url: '/api/v1/nodes',
      token: admin.token,
      payload: {
        name: `node-${counter}`,
        connection: { protocol: 'HTTP', hostname: `node${counter}.example.com`, port: 4242 },
        enabled: true,
        opened: true,
        ...overrides,
      },
    });
    if (response.statusCode !== 201) throw new Error(`node creation failed: ${response.statusCode} ${response.body}`);
    const node = response.json();
    return { id: node.id as string, name: node.name as string, token: node.token as string };
  };

  /** A node group owned by `owner` (null: the streaming cloud's own) with the nodes attached; answers its id. */
  createNodeGroup = async (
    admin: TestAccount,
    assignment: 'Common' | 'Ingestion' | 'Outgoing',
    owner: TestAccount | null,
    nodeIds: string[] = [],
  ): Promise<string> => {
    const created = await this.request({
      method: 'POST',
      url: '/api/v1/node-groups',
      token: admin.token,
      payload: { name: `${assignment} of ${owner?.username ?? 'the cloud'}`, assignment, ownerId: owner?.id ?? 'NONE' },
    });
    if (created.statusCode !== 201)
      throw new Error(`node group creation failed: ${created.statusCode} ${created.body}`);
    const id = created.json().id as string;
    for (const nodeId of nodeIds) {
      const attached = await this.request({
        method: 'PUT',
        url: `/api/v1/node-groups/${id}/node/${nodeId}`,
        token: admin.token,
      });
      if (attached.statusCode !== 204) throw new Error(`attaching a node failed: ${attached.statusCode}`);
    }
    return id;
  };

  /**
   * Creates a stream (`POST /inputs`) with the token of the role matrix's owner unless told otherwise;
   * the payload's fields replace the defaults (an adjustable RTMP stream).
   */
  createInput = async (payload: object = {}, token: string = this.roles.owner.token): Promise<TestStream> => {
    const response = await this.request({ method: 'POST', url: '/api/v1/inputs', token, payload });
    if (response.statusCode !== 201) throw new Error(`stream creation failed: ${response.statusCode} ${response.body}`);
    return response.json() as TestStream;
  };

  /** Creates a viewer output (`POST /outputs`) of a stream, as the role matrix's owner unless told otherwise. */
  createOutput = async (payload: object, token: string = this.roles.owner.token): Promise<StreamOutput> => {
    const response = await this.request({ method: 'POST', url: '/api/v1/outputs', token, payload });
    if (response.statusCode !== 201) throw new Error(`output creation failed: ${response.statusCode} ${response.body}`);
    return response.json() as StreamOutput;
  };

  /** Sends one batch of node reports with a node token. */
  report = (nodeToken: string, reports: object[]) =>
    this.request({ method: 'POST', url: '/api/v1/node/reports', token: nodeToken, payload: { reports } });

  /** The accounts of the role matrix: root (ADMIN), alice (the owner) and bob (another account). */
  roleMatrix = async (): Promise<Roles> => {
    const admin = await this.createAccount('ADMIN', 'root');
    const owner = await this.createAccount('USER', 'alice');
    const other = await this.createAccount('USER', 'bob');
    const tokens: Record<Caller, string | undefined> = {
      anonymous: undefined,
      'USER owner': owner.token,
      'USER other': other.token,
      'ADMIN impersonating owner': await this.impersonate(admin, owner),
      ADMIN: admin.token,
    };
    const call = (caller: Caller, method: Method, url: string, payload?: object) =>
      this.request({ method, url, token: tokens[caller], ...(payload ? { payload } : {}) });
    return { admin, owner, other, tokens, call };
  };

  /** The latest entries of the audit log, newest first. */
  auditLog = (limit: number) => this.app.moduleContext.uow.audit.list(limit);

  /** How many SQL statements the app ran during `work`. */
  queryCount = async (work: () => Promise<unknown>): Promise<number> => {
    const before = this.queries;
    await work();
    return this.queries - before;
  };

  private need() {
    if (!this.started) throw new Error('The test app is not started: use it inside a test or a hook');
    return this.started;
  }
}

export interface UseTestAppOptions {
  /** Makes the role matrix's accounts before each test, as `t.roles`. */
  roles?: boolean;
}

/**
 * The app of one test file, the fastify/demo way: the call registers the file's own set-up and teardown.
 * The app starts before the file's first test and closes after its last; before each test it is `reset`. Options may be a function, read when the app starts (after the hooks registered before
 * this call, e.g. one starting a server the app calls).
 */
export function useTestApp(
  options: Partial<AppOptions> | (() => Partial<AppOptions>) = {},
  use: UseTestAppOptions = {},
): TestApp {
  const t = new TestApp(options);
  beforeAll(() => t.start());
  afterAll(() => t.close());
  beforeEach(() => t.reset({ roles: use.roles }));
  return t;
}

/** An app for one test, which closes it itself. */
export function startTestApp(options: Partial<AppOptions> = {}): Promise<TestApp> {
  return new TestApp(options).start();
}

/**
 * The node stub of one test file, the way `useTestApp` does it: started before the file's tests, closed after
 * them, and put back to its defaults with no calls before each test.
 */
export function useNodeStub(): NodeStub {
  let stub: NodeStub | undefined;
  const need = () => {
    if (!stub) throw new Error('The node stub is not started: use it inside a test or a hook');
    return stub;
  };
  beforeAll(async () => {
    stub = await startNodeStub();
  });
  afterAll(() => stub?.close());
  beforeEach(() => {
    need().set({ metadata: DEFAULT_STUB_METADATA, status: 200, delayMs: 0, rawBody: undefined });
    need().forget();
    need().calls.length = 0;
  });
  return {
    hostname: '127.0.0.1',
    get port() {
      return need().port;
    },
    get calls() {
      return need().calls;
    },
    set: (behaviour) => need().set(behaviour),
    trust: (token) => need().trust(token),
    forget: () => need().forget(),
    close: () => need().close(),
  };
}
