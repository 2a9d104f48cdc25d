import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RESPONSE_BYTES, postJson } from './http-post.js';
import { createOutboundAgents, forbiddenAddressClass } from './outbound-agents.js';

/** A local HTTP server answering as each test tells it. */
let handler: RequestListener = (_request, response) => response.end();
const hits: string[] = [];
const server = createServer((request, response) => {
  hits.push(request.url ?? '');
  handler(request, response);
});
let base = '';
const open = createOutboundAgents({ allowPrivateNetworks: true });
const guarded = createOutboundAgents({ allowPrivateNetworks: false });

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => {
  hits.length = 0;
});
afterAll(async () => {
  open.destroy();
  guarded.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the address guard', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.10.10', 'link-local'],
    ['fe80::1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['0.0.0.0', 'unspecified, multicast or reserved'],
    ['224.0.0.1', 'unspecified, multicast or reserved'],
    ['::', 'unspecified, multicast or reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
  ])('refuses %s (%s)', (address, label) => {
    expect(forbiddenAddressClass(address)).toBe(label);
  });

  it.each(['203.0.113.7', '8.8.8.8', '172.32.0.1', '2001:db8::1', '2606:4700::1111'])('allows %s', (address) => {
    expect(forbiddenAddressClass(address)).toBeNull();
  });

  it('refuses a loopback literal and a name resolving to loopback, at connect time, before any byte is sent', async () => {
    for (const url of [`${base}/literal`, base.replace('127.0.0.1', 'localhost')]) {
      const outcome = await postJson(url, '{}', {}, guarded, 2_000);
      expect(outcome).toEqual({
        ok: false,
        statusCode: null,
        error: expect.stringMatching(/^The address (127\.0\.0\.1|::1) may not be called \(loopback\)$/),
      });
    }
    expect(hits).toEqual([]);
  });

  it('lets everything through when private networks are allowed', async () => {
    expect(await postJson(`${base}/ok`, '{}', {}, open, 2_000)).toEqual({ ok: true, statusCode: 200 });
  });
});

describe('POST', () => {
  it('sends the JSON body with its headers', async () => {
    let received: { headers: Record<string, unknown>; body: string } | null = null;
    handler = (request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        received = { headers: request.headers, body };
        response.writeHead(204).end();
      });
    };
    expect(await postJson(`${base}/hook`, '{"a":1}', { 'webhook-id': 'e1' }, open, 2_000)).toEqual({
      ok: true,
      statusCode: 204,
    });
    expect(received).toMatchObject({
      body: '{"a":1}',
      headers: { 'content-type': 'application/json', 'webhook-id': 'e1', 'user-agent': 'Streamcloud-Webhooks/1.0' },
    });
  });

  it('does not follow a redirect: it is a failure', async () => {
    handler = (request, response) => {
      if (request.url === '/moved') response.writeHead(302, { location: `${base}/elsewhere` }).end();
      else response.end();
    };
    expect(await postJson(`${base}/moved`, '{}', {}, open, 2_000)).toEqual({
      ok: false,
      statusCode: 302,
      error: `HTTP 302 (redirects are not followed: ${base}/elsewhere)`,
    });
    expect(hits).toEqual(['/moved']);
  });

  it('reads at most 64 KiB of an answer and keeps a short excerpt of a failure', async () => {
    let written = 0;
    handler = (_request, response) => {
      response.writeHead(500);
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const write = () => {
        // Far more than the limit: the client stops reading and drops the connection.
        while (written < 8 * 1024 * 1024) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', write);
        }
        response.end();
      };
      response.on('close', () => undefined);
      write();
    };
    const outcome = await postJson(`${base}/big`, '{}', {}, open, 5_000);
    expect(outcome).toEqual({ ok: false, statusCode: 500, error: `HTTP 500: ${'x'.repeat(200)}` });
    expect(MAX_RESPONSE_BYTES).toBe(65_536);
    expect(written).toBeLessThan(8 * 1024 * 1024);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    handler = () => undefined;
    expect(await postJson(`${base}/slow`, '{}', {}, open, 300)).toEqual({
      ok: false,
      statusCode: null,
      error: 'No answer within 0.3 s',
    });
  });

  it('refuses what is not http(s)', async () => {
    expect(await postJson('ftp://example.com/x', '{}', {}, open, 300)).toEqual({
      ok: false,
      statusCode: null,
      error: 'Only http and https URLs are called',
    });
  });
});
