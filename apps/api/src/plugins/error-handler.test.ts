import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers.js';

/** Refusals made below the routes (the router, Node's HTTP parser) answer the API's error shape. */
const t = useTestApp({}, { roles: true });

/** Sends raw bytes to the listening API and answers the status and body of its reply. */
async function rawRequest(port: number, request: string): Promise<{ status: number; body: unknown }> {
  const reply = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString();
    });
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
  const [head = '', body = ''] = reply.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), body: JSON.parse(body) };
}

describe('framework-level errors', () => {
  let port = 0;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(() => t.app.server.close());

  it('answers 414 in the API shape for a path segment longer than 100 characters', async () => {
    const response = await t.request({
      method: 'GET',
      url: `/api/v1/inputs/${'a'.repeat(101)}`,
      token: t.roles.owner.token,
    });
    expect(response.statusCode).toBe(414);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({
      message: 'The URL is too long: a path segment may have at most 100 characters',
      code: 'FST_ERR_MAX_PARAM_LENGTH',
    });
    // 100 characters still reach the route (an id it does not know).
    const longest = await t.request({
      method: 'GET',
      url: `/api/v1/inputs/${'a'.repeat(100)}`,
      token: t.roles.owner.token,
    });
    expect(longest.statusCode).not.toBe(414);
  });

  it('answers 400 in the API shape for a malformed %-escape in a path segment', async () => {
    const response = await t.request({ method: 'GET', url: '/api/v1/inputs/%E0%A4%A', token: t.roles.owner.token });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'The URL is not valid: a path segment has a malformed %-escape',
      code: 'FST_ERR_BAD_URL',
    });
  });

  it("answers what Node's parser refuses (431, a malformed request) in the API shape", async () => {
    const huge = await rawRequest(port, `GET /api/v1/inputs?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(huge).toEqual({
      status: 431,
      body: { message: 'The request line and headers are too large (at most 16 KB)', code: 'HEADERS_TOO_LARGE' },
    });
    const malformed = await rawRequest(port, 'GET /api/v1/inputs HTTP/1.1\r\nHost x\r\n\r\n');
    expect(malformed).toEqual({ status: 400, body: { message: 'The HTTP request is malformed', code: 'BAD_REQUEST' } });
  });
});
