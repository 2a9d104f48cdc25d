import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addressPolicy, loopbackOnly } from './address.js';
import { BlockedAddressError, guardedAgents, isUnreachable, type Resolve } from './agents.js';
import { createGuardedFetch } from './fetch.js';
import { createNetGuard } from './index.js';

// A receiver on loopback counts the connections it gets: a refused target must never be connected to.
let server: Server;
let port: number;
let connections = 0;
beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      if (request.url === '/redirect') {
        response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      } else if (request.url === '/empty') {
        response.writeHead(204).end();
      } else if (request.url === '/slow') {
        setTimeout(() => response.end('late'), 2000);
      } else {
        response.writeHead(200, { 'content-type': 'application/json', 'x-seen': 'yes' });
        response.end(
          JSON.stringify({ method: request.method, url: request.url, body, type: request.headers['content-type'] }),
        );
      }
    });
  });
  server.on('connection', () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  connections = 0;
});

const strict = createNetGuard(addressPolicy({ allowPrivate: false }));
const lenient = createNetGuard(addressPolicy({ allowPrivate: true }));

describe('the guarded fetch', () => {
  it('refuses loopback in every spelling without connecting, and says nothing about the port', async () => {
    const spellings = [
      `http://127.0.0.1:${port}/`,
      `http://127.1:${port}/`,
      `http://2130706433:${port}/`,
      `http://0x7f.1:${port}/`,
      `http://localhost:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://0.0.0.0:${port}/`,
      `http://[::]:${port}/`,
      `http://127.0.0.1:1/`,
    ];
    for (const url of spellings) {
      const error = await strict.fetch(url).catch((caught: unknown) => caught);
      expect(error, url).toBeInstanceOf(BlockedAddressError);
      expect(isUnreachable(error), url).toBe(true);
    }
    expect(connections).toBe(0);
  });

  it('refuses link-local, metadata and private targets before connecting, whatever the port', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/',
      'http://10.0.0.1:9000/',
      'http://192.168.0.1/',
      'http://[fd00::1]/',
      'https://172.16.0.1/',
    ]) {
      await expect(strict.fetch(url), url).rejects.toBeInstanceOf(BlockedAddressError);
    }
    // Link-local and metadata stay refused when private networks are allowed.
    await expect(lenient.fetch('http://169.254.169.254/')).rejects.toBeInstanceOf(BlockedAddressError);
    await expect(lenient.fetch('http://[::]:80/')).rejects.toBeInstanceOf(BlockedAddressError);
  });

  it('talks to an allowed target: method, headers, text and bytes bodies, JSON answer', async () => {
    const response = await lenient.fetch(`http://127.0.0.1:${port}/hook?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hello: 'world' }),
    });
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.headers.get('x-seen')).toBe('yes');
    expect(await response.json()).toEqual({
      method: 'POST',
      url: '/hook?x=1',
      body: '{"hello":"world"}',
      type: 'application/json',
    });
    const form = await lenient.fetch(`http://localhost:${port}/`, {
      method: 'PUT',
      body: new URLSearchParams({ a: '1' }),
    });
    expect(await form.json()).toMatchObject({ body: 'a=1', type: 'application/x-www-form-urlencoded;charset=UTF-8' });
    const empty = await lenient.fetch(`http://127.0.0.1:${port}/empty`);
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe('');
  });

  it('never follows a redirect', async () => {
    const manual = await lenient.fetch(`http://127.0.0.1:${port}/redirect`);
    expect(manual.status).toBe(302);
    await expect(lenient.fetch(`http://127.0.0.1:${port}/redirect`, { redirect: 'error' })).rejects.toThrow(
      /Redirect to http:\/\/169\.254\.169\.254/,
    );
  });

  it('gives up when its signal says so', async () => {
    const error = await lenient
      .fetch(`http://127.0.0.1:${port}/slow`, { signal: AbortSignal.timeout(100) })
      .catch((caught: unknown) => caught);
    expect((error as Error).name).toBe('TimeoutError');
  });

  it('refuses other schemes', async () => {
    await expect(lenient.fetch('file:///etc/passwd')).rejects.toThrow(/Only http and https/);
  });
});

describe('DNS', () => {
  /** A resolver whose answers the test decides, like an attacker's name server. */
  const resolver =
    (answers: Record<string, string[]>): Resolve =>
    (hostname, _options, callback) => {
      const addresses = answers[hostname];
      if (!addresses) {
        callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
        return;
      }
      callback(
        null,
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      );
    };

  it('judges the addresses a name resolves to when connecting, so a rebound name is refused', async () => {
    const resolve = resolver({ 'rebind.example': ['127.0.0.1'], 'mixed.example': ['93.184.216.34', '10.0.0.7'] });
    const guarded = createGuardedFetch(guardedAgents(addressPolicy({ allowPrivate: false }), { resolve }));
    await expect(guarded(`http://rebind.example:${port}/`)).rejects.toBeInstanceOf(BlockedAddressError);
    await expect(guarded('http://mixed.example/')).rejects.toBeInstanceOf(BlockedAddressError);
    expect(connections).toBe(0);
  });

  it('connects to exactly the address it checked', async () => {
    const resolve = resolver({ 'receiver.example': ['127.0.0.1'] });
    const guarded = createGuardedFetch(guardedAgents(loopbackOnly, { resolve }));
    const response = await guarded(`http://receiver.example:${port}/named`);
    expect(await response.json()).toMatchObject({ url: '/named' });
    expect(connections).toBe(1);
  });

  it('passes lookup failures on, as unreachable', async () => {
    const guarded = createGuardedFetch(guardedAgents(loopbackOnly, { resolve: resolver({}) }));
    const error = await guarded('http://nowhere.example/').catch((caught: unknown) => caught);
    expect((error as { code?: string }).code).toBe('ENOTFOUND');
    expect(isUnreachable(error)).toBe(true);
  });
});

describe('isUnreachable', () => {
  it('knows connection failures, in causes too, and nothing else', () => {
    expect(isUnreachable(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isUnreachable(new TypeError('fetch failed', { cause: { code: 'EHOSTUNREACH' } }))).toBe(true);
    expect(isUnreachable(new BlockedAddressError('h', '10.0.0.1'))).toBe(true);
    expect(isUnreachable(new Error('HTTP 500'))).toBe(false);
    expect(isUnreachable(null)).toBe(false);
  });
});
