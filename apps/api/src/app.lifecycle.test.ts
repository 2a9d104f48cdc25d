import { connect } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/helpers.js';
import { buildApp } from './app.js';
import { type DatabaseHandle, openDatabase } from './db/database.js';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

/** Sends raw HTTP on one connection and collects everything the server answers until it closes. */
function openConnection(port: number) {
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (chunk) => {
    answer += chunk.toString();
  });
  const closed = new Promise<string>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
  });
  return { send: (request: string) => socket.write(request), destroy: () => socket.destroy(), closed };
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;

describe('graceful shutdown', () => {
  it('lets in-flight requests finish and answers 503 to requests that arrive while closing', async () => {
    const app = await buildApp({ database, secret: 'lifecycle-secret-long-enough-for-tests' });
    let started!: () => void;
    const slowStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    app.get('/slow', async () => {
      started();
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { done: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };

    const inFlight = openConnection(port);
    inFlight.send(get('/slow'));
    const late = openConnection(port);
    // Half a request: the connection is busy, so closing does not drop it.
    late.send('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    await slowStarted;
    const closed = app.close();
    late.send('\r\n');

    const finished = await inFlight.closed;
    expect(finished).toMatch(/^HTTP\/1\.1 200 /);
    expect(finished).toContain('{"done":true}');
    expect(finished.toLowerCase()).toContain('connection: close');
    const refused = await late.closed;
    expect(refused).toMatch(/^HTTP\/1\.1 503 /);
    expect(refused).toContain('"code":"SHUTTING_DOWN"');
    await closed;
  });

  it('counts a request whose client went away as in flight until its handler answers', async () => {
    const app = await buildApp({ database, secret: 'lifecycle-secret-long-enough-for-tests' });
    let started!: () => void;
    const slowStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    let handlerDone = false;
    app.get('/abandoned', async () => {
      started();
      await new Promise((resolve) => setTimeout(resolve, 300));
      handlerDone = true;
      return { done: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };

    const abandoned = openConnection(port);
    abandoned.send(get('/abandoned'));
    await slowStarted;
    abandoned.destroy();
    await app.close();
    await app.requestsDrained(5000);
    expect(handlerDone).toBe(true);
  });
});

describe('PGlite upkeep', () => {
  // Its own embedded database (the suite's may be PostgreSQL), opened in a hook: starting PGlite and
  // migrating it takes most of the test timeout on a loaded machine, which is what made this test fail.
  let embedded: DatabaseHandle;
  beforeAll(async () => {
    embedded = await openDatabase({ memory: true });
  });
  afterAll(() => embedded.close());

  it('vacuums the embedded database on its interval once the app is ready', async () => {
    await sql`create table churned (id int primary key, value int not null)`.execute(embedded.db);
    await sql`insert into churned select i, 0 from generate_series(1, 2000) as i`.execute(embedded.db);
    await sql`update churned set value = value + 1`.execute(embedded.db);
    const lastVacuum = async () => {
      await sql`select pg_stat_force_next_flush()`.execute(embedded.db);
      await sql`select 1`.execute(embedded.db);
      const { rows } = await sql<{ at: Date | null }>`
        select last_vacuum as at from pg_stat_user_tables where relname = 'churned'`.execute(embedded.db);
      return rows[0]?.at ?? null;
    };
    const app = await buildApp({
      database: embedded,
      secret: 'lifecycle-secret-long-enough-for-tests',
      vacuumIntervalMs: 50,
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await lastVacuum()).toBeNull();
      await app.ready();
      await expect.poll(lastVacuum, { timeout: 5000 }).toBeInstanceOf(Date);
    } finally {
      await app.close();
    }
  });
});

describe('request logging', () => {
  it('logs the requests of people at info, and the polling of media nodes only when it fails', async () => {
    const lines: string[] = [];
    const app = await buildApp({
      database,
      secret: 'lifecycle-secret-long-enough-for-tests',
      logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
    });
    try {
      await app.inject({ method: 'GET', url: '/healthz' });
      await app.inject({ method: 'GET', url: '/api/v1/node/inputs' });
      const urls = lines.map((line) => (JSON.parse(line) as { req?: { url: string } }).req?.url).filter(Boolean);
      expect(urls).toEqual(['/healthz']);
    } finally {
      await app.close();
    }
  });
});
