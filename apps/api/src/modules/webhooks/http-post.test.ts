import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { addressPolicy, createNetGuard, loopbackOnly } from '@streamcloud/net-guard';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RESPONSE_BYTES, postJson } from './http-post.js';

/** A local HTTP server answering as each test tells it. */
let handler: RequestListener = (_request, response) => response.end();
const hits: string[] = [];
const server = createServer((request, response) => {
  hits.push(request.url ?? '');
  handler(request, response);
});
let base = '';
/** What tests reach (loopback only), and the production guard of users' destinations (public only). */
const open = createNetGuard(loopbackOnly);
const guarded = createNetGuard(addressPolicy({ allowPrivate: false }));

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => {
  hits.length = 0;
});
afterAll(async () => {
  for (const { agents } of [open, guarded]) {
    agents.http.destroy();
    agents.https.destroy();
  }
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

// The address classes themselves are net-guard's (packages/net-guard/src/address.test.ts); here, that the
// dispatcher's requests go through the guard and what the log then says.
describe('the address guard', () => {
  it('refuses a loopback literal and a name resolving to loopback, at connect time, before any byte is sent', async () => {
    for (const url of [`${base}/literal`, base.replace('127.0.0.1', 'localhost')]) {
      const outcome = await postJson(guarded.fetch, url, '{}', {}, 2_000);
      // Read like any unreachable host, so the log cannot map which addresses answer.
      expect(outcome).toEqual({ ok: false, statusCode: null, error: 'The receiver cannot be reached' });
    }
    expect(hits).toEqual([]);
  });

  it('lets everything through when private networks are allowed', async () => {
    expect(await postJson(open.fetch, `${base}/ok`, '{}', {}, 2_000)).toEqual({ ok: true, statusCode: 200 });
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
    expect(await postJson(open.fetch, `${base}/hook`, '{"a":1}', { 'webhook-id': 'e1' }, 2_000)).toEqual({
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
    expect(await postJson(open.fetch, `${base}/moved`, '{}', {}, 2_000)).toEqual({
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
    const outcome = await postJson(open.fetch, `${base}/big`, '{}', {}, 5_000);
    expect(outcome).toEqual({ ok: false, statusCode: 500, error: `HTTP 500: ${'x'.repeat(200)}` });
    expect(MAX_RESPONSE_BYTES).toBe(65_536);
    expect(written).toBeLessThan(8 * 1024 * 1024);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    handler = () => undefined;
    expect(await postJson(open.fetch, `${base}/slow`, '{}', {}, 300)).toEqual({
      ok: false,
      statusCode: null,
      error: 'No answer within 0.3 s',
    });
  });

  it('refuses what is not http(s)', async () => {
    expect(await postJson(open.fetch, 'ftp://example.com/x', '{}', {}, 300)).toEqual({
      ok: false,
      statusCode: null,
      error: 'Only http and https URLs are called',
    });
  });
});
