import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { addressPolicy, createNetGuard } from '@streamcloud/net-guard';
import { type LocalS3Server, startLocalS3 } from '@streamcloud/s3/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOutbound, OUTBOUND_RATE_LIMIT } from '../src/lib/outbound.js';
import { S3ConnectionChecker } from '../src/modules/storages/s3-connection.js';
import { startTestApp, useTestApp } from './helpers.js';

// Issue 13, item 4: a USER's storage endpoint (and a callback URI) must not make the server
// connect to loopback, private, link-local or metadata addresses, and the answer must not tell an open
// port from a closed one. The app here has the production guards: private networks not allowed.

let s3: LocalS3Server;
let receiver: Server;
let receiverPort: number;
let connections = 0;

beforeAll(async () => {
  receiver = createServer((_request, response) => response.end('<Error/>'));
  receiver.on('connection', () => {
    connections++;
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverPort = (receiver.address() as AddressInfo).port;
  s3 = await startLocalS3(['media']);
});
afterAll(async () => {
  await Promise.all([s3.close(), new Promise((resolve) => receiver.close(resolve))]);
});
const t = useTestApp({ outbound: createOutbound({ allowPrivateNetworks: false }) }, { roles: true });
beforeEach(() => {
  connections = 0;
});

const storage = (endpoint: string) => ({
  name: 'Probe',
  type: 'AmazonS3Compatible',
  accessKeyId: 'AKIA',
  secretAccessKey: 'secret',
  bucket: 'media',
  endpoint,
});

/** The unreachable message with the host and port taken out, to compare answers about different targets. */
const shape = (message: string) => message.replace(/^\S+ cannot be reached/, '<host> cannot be reached');

describe('storage endpoints', () => {
  it('never reach loopback, private, link-local or metadata addresses, in any spelling', async () => {
    const port = receiverPort;
    const targets = [
      `http://127.0.0.1:${port}`,
      `http://127.1:${port}`,
      `http://127.0.1:${port}`,
      `http://2130706433:${port}`,
      `http://0x7f000001:${port}`,
      `http://0177.0.0.1:${port}`,
      `http://localhost:${port}`,
      `http://[::1]:${port}`,
      `http://[::ffff:127.0.0.1]:${port}`,
      `http://0.0.0.0:${port}`,
      'http://169.254.169.254',
      'http://10.0.0.1:9000',
      'http://192.168.1.10',
      'http://[fd00::1]:9000',
      'http://[fd00:ec2::254]',
    ];
    const messages = new Set<string>();
    let user = t.roles.owner;
    for (const [index, endpoint] of targets.entries()) {
      // Each account may make the server connect out a few times a minute.
      if (index % OUTBOUND_RATE_LIMIT.max === OUTBOUND_RATE_LIMIT.max - 1) user = await t.createAccount('USER');
      const created = await t.request({
        method: 'POST',
        url: '/api/v1/storages',
        token: user.token,
        payload: storage(endpoint),
      });
      expect(created.statusCode, `${endpoint}: ${created.body}`).toBe(201);
      const bucket = created.json().check.checks[0];
      expect(bucket.ok, endpoint).toBe(false);
      messages.add(shape(bucket.message));
    }
    expect(connections).toBe(0);
    expect([...messages]).toEqual([
      "<host> cannot be reached from the control plane: check the endpoint's host and port (private, loopback and link-local addresses are refused unless the operator allows private networks)",
    ]);
  });

  it('answer a refused address exactly as a closed port, so ports cannot be told apart', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const target = (port: number) => ({
      type: 'AmazonS3Compatible' as const,
      accessKeyId: 'AKIA',
      secretAccessKey: 'secret',
      regionName: null,
      bucket: 'media',
      path: null,
      endpoint: `http://127.0.0.1:${port}`,
    });
    // Allowed to connect: the closed port refuses. Not allowed: the open port is never tried.
    const lenient = createNetGuard(addressPolicy({ allowPrivate: true })).agents;
    const strict = createNetGuard(addressPolicy({ allowPrivate: false })).agents;
    const refused = await new S3ConnectionChecker(2000, lenient).check(target(closedPort));
    const blocked = await new S3ConnectionChecker(2000, strict).check(target(receiverPort));
    expect(blocked.checks[0]?.message.replace(String(receiverPort), 'PORT')).toBe(
      refused.checks[0]?.message.replace(String(closedPort), 'PORT'),
    );
    expect(connections).toBe(0);
  });

  it('reach private addresses when the operator allows private networks, but never metadata', async () => {
    const lenient = await startTestApp({ outbound: createOutbound({ allowPrivateNetworks: true }) });
    try {
      const user = await lenient.createAccount('USER');
      const saved = await lenient.request({
        method: 'POST',
        url: '/api/v1/storages',
        token: user.token,
        payload: { ...storage(s3.endpoint), ...s3.credentials },
      });
      expect(saved.statusCode, saved.body).toBe(201);
      expect(saved.json().check.ok, saved.body).toBe(true);
      const metadata = await lenient.request({
        method: 'POST',
        url: '/api/v1/storages',
        token: user.token,
        payload: storage('http://169.254.169.254'),
      });
      expect(metadata.json().check.checks[0].message).toMatch(/cannot be reached from the control plane/);
    } finally {
      await lenient.close();
    }
  });

  it('are limited per account: saves and checks that connect out answer 429 past the limit', async () => {
    const created = await t.roles.call('USER owner', 'POST', '/api/v1/storages', storage('http://10.0.0.1'));
    const id = created.json().id as string;
    const statuses: number[] = [];
    for (let i = 0; i < OUTBOUND_RATE_LIMIT.max + 2; i++) {
      statuses.push((await t.roles.call('USER owner', 'POST', `/api/v1/storages/${id}/check`)).statusCode);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(OUTBOUND_RATE_LIMIT.max);
    expect(statuses.slice(-2)).toEqual([429, 429]);
    const updates: number[] = [];
    for (let i = 0; i < OUTBOUND_RATE_LIMIT.max + 1; i++) {
      updates.push(
        (await t.roles.call('USER owner', 'PUT', `/api/v1/storages/${id}`, storage('http://10.0.0.1'))).statusCode,
      );
    }
    expect(updates.at(-1)).toBe(429);
    // A save that does not check does not connect out, and is not limited.
    const unchecked = await t.roles.call(
      'USER owner',
      'PUT',
      `/api/v1/storages/${id}?check=false`,
      storage('http://x.y'),
    );
    expect(unchecked.statusCode, unchecked.body).toBe(200);
    // Another account has its own allowance.
    const other = await t.roles.call('USER other', 'POST', '/api/v1/storages', storage('http://10.0.0.1'));
    expect(other.statusCode).toBe(201);
  });
});

describe('callbacks', () => {
  it('never reach a refused address, and the log says only that the receiver cannot be reached', async () => {
    const group = await t.roles.call('ADMIN', 'POST', '/api/v1/node-groups', {
      name: 'edge',
      assignment: 'Ingestion',
      ownerId: t.roles.owner.id,
      onResourcesChangeCallbackUri: `http://127.0.0.1:${receiverPort}/hook`,
    });
    expect(group.statusCode, group.body).toBe(201);
    const node = await t.createNode(t.roles.admin);
    const attached = await t.roles.call('ADMIN', 'PUT', `/api/v1/node-groups/${group.json().id}/node/${node.id}`);
    expect(attached.statusCode, attached.body).toBe(204);
    const test = await t.roles.call('USER owner', 'POST', '/api/v1/webhooks/test', {
      url: `http://localhost:${receiverPort}/test`,
    });
    expect(test.statusCode, test.body).toBe(202);
    expect(await t.app.services.webhooks.dispatcher.drain()).toBe(2);
    const log = await t.roles.call('USER owner', 'GET', '/api/v1/webhooks/deliveries');
    expect(log.json().map((delivery: { lastError: string }) => delivery.lastError)).toEqual([
      'The receiver cannot be reached',
      'The receiver cannot be reached',
    ]);
    expect(connections).toBe(0);
  });
});
