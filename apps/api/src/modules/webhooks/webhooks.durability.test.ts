import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNetGuard, loopbackOnly } from '@streamcloud/net-guard';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createServerDatabase, TEST_SCRYPT } from '../../../test/helpers.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.js';
import { buildApp } from '../../app.js';
import { openDatabase } from '../../db/database.js';

/**
 * What must survive processes: an API killed with SIGKILL mid-delivery delivers after its restart, and
 * two API servers on one PostgreSQL deliver each event once.
 */

const SERVER = fileURLToPath(new URL('../../server.ts', import.meta.url));
const ADMIN = { username: 'root', password: 'durable-password-1' };
const onPostgres = Boolean(inject('databaseServerUrl'));

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Runs server.ts as a child process (as production does) and answers its base URL once it listens. */
async function startServer(env: Record<string, string>): Promise<{ url: string; process: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      LOCAL_MEDIA_NODE: 'off',
      CALLBACK_ALLOW_PRIVATE_NETWORKS: 'on',
      // The node here is the test: it never reports, and its stream must stay in Ingestion.
      NODE_SILENCE_SECONDS: '3600',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => killed(child));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 180_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const port = /running on http:\/\/localhost:(\d+)\//.exec(output)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${port}`);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.on('exit', (code) => reject(new Error(`the server exited (${code}):\n${output}`)));
  });
  return { url, process: child };
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** JSON over HTTP with a bearer token. */
async function http(base: string, token: string | null, method: string, path: string, body?: object) {
  const response = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

describe('durability', () => {
  it('an API killed (SIGKILL) while a delivery is in flight delivers it after the restart', async () => {
    const receiver: WebhookReceiver = await startWebhookReceiver();
    cleanups.push(() => receiver.close());
    let env: Record<string, string>;
    if (onPostgres) {
      const database = await createServerDatabase();
      cleanups.push(() => database.drop());
      env = { DATABASE_URL: database.url, JWT_SECRET: 'durability-secret-of-at-least-32-chars' };
    } else {
      const dataDir = await mkdtemp(join(tmpdir(), 'streamcloud-durability-'));
      cleanups.push(() => rm(dataDir, { recursive: true, force: true, maxRetries: 5 }));
      env = { DATA_DIR: dataDir };
    }
    const first = await startServer(env);
    const admin = (await http(first.url, null, 'POST', '/login', ADMIN)).token;
    const node = await http(first.url, admin, 'POST', '/nodes', {
      name: 'durable-node',
      connection: { protocol: 'HTTP', hostname: 'node.example.com', port: 4242 },
      enabled: true,
      opened: true,
    });
    const stream = await http(first.url, admin, 'POST', '/inputs', {
      format: 'RTMP',
      callbackUri: `${receiver.url}/durable`,
    });
    receiver.hold();
    await http(first.url, node.token, 'POST', '/node/reports', {
      reports: [{ id: randomUUID(), kind: 'stream-state', streamId: stream.id, status: 'Ingestion' }],
    });
    const [inFlight] = await receiver.waitFor(1);
    await killed(first.process);
    receiver.release();

    const second = await startServer(env);
    // On PostgreSQL another server could still hold the lease: it ends 15 s after the claim.
    const [, again] = await receiver.waitFor(2, 60_000);
    expect(again?.headers['webhook-id']).toBe(inFlight?.headers['webhook-id']);
    expect(again?.body).toBe(inFlight?.body);
    const token = (await http(second.url, null, 'POST', '/login', ADMIN)).token;
    const { secret } = await http(second.url, token, 'GET', '/webhooks/secret');
    expect(new Webhook(secret).verify(again?.body ?? '', again?.headers as Record<string, string>)).toMatchObject({
      type: 'stream.ingestion',
      data: { id: stream.id },
    });
    await expect
      .poll(async () => http(second.url, token, 'GET', `/webhooks/deliveries?streamId=${stream.id}`), {
        timeout: 10_000,
      })
      .toEqual([expect.objectContaining({ status: 'Delivered', attempts: 2, lastStatusCode: 200 })]);
  }, 420_000);

  it.runIf(onPostgres)(
    'two API servers on one PostgreSQL deliver each event once',
    async () => {
      const receiver = await startWebhookReceiver();
      cleanups.push(() => receiver.close());
      const database = await createServerDatabase();
      cleanups.push(() => database.drop());
      const apps = await Promise.all(
        ['one', 'two'].map(async () => {
          const handle = await openDatabase({ url: database.url });
          const app = await buildApp({
            database: handle,
            secret: 'two-servers-secret-of-at-least-32-chars',
            scryptCost: TEST_SCRYPT,
            // The receiver listens on 127.0.0.1: nothing else may be reached.
            outbound: { users: createNetGuard(loopbackOnly), operator: createNetGuard(loopbackOnly) },
            webhooks: { dispatch: true, dispatcher: { batchSize: 10 } },
          });
          await app.ready();
          cleanups.push(async () => {
            await app.close();
            await handle.close();
          });
          return app;
        }),
      );
      const [one, two] = apps as [(typeof apps)[number], (typeof apps)[number]];
      const account = await one.services.accounts.create(null, {
        username: 'alice',
        password: 'alice-password-1',
        role: 'USER',
      });
      const events = 300;
      // Half the events are written through each server; both dispatchers wake on each other's writes.
      for (let index = 0; index < events; index++) {
        const app = index % 2 === 0 ? one : two;
        await app.services.webhooks.outbox.emit(app.services.webhooks.repository.db, {
          type: 'webhook.test',
          accountId: account.id,
          resourceType: 'account',
          resourceId: null,
          streamId: null,
          url: `${receiver.url}/${index}`,
          occurredAt: new Date(),
          data: { accountId: account.id, message: `event ${index}` },
        });
      }
      await receiver.waitFor(events, 60_000);
      // Anything sent twice would arrive within the lease; give stragglers a moment by draining both.
      await Promise.all([one.services.webhooks.dispatcher.drain(), two.services.webhooks.dispatcher.drain()]);
      const ids = receiver.received.map((request) => request.headers['webhook-id']);
      expect(ids).toHaveLength(events);
      expect(new Set(ids).size).toBe(events);
      const claimedBy = await one.services.webhooks.repository.db
        .selectFrom('webhook_deliveries')
        .select(['status'])
        .where('status', '<>', 'Delivered')
        .execute();
      expect(claimedBy).toEqual([]);
    },
    120_000,
  );
});
