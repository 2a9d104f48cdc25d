import { accountRoutes, authRoutes, defineRoute, snapshotRoutes } from '@streamcloud/contract';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type ApiClientOptions, createApiClient } from './client.js';
import { ApiError } from './error.js';
import { createFetchMock, emptyResponse, errorResponse, jsonResponse, networkFailure } from './testing/fetch-mock.js';

const userAccount = {
  id: '00000000-0000-4000-8000-000000000002',
  username: 'alice',
  email: null,
  role: 'USER',
  createdAt: '2025-01-01T00:00:00.000Z',
};
const adminAccount = { ...userAccount, id: '00000000-0000-4000-8000-000000000001', username: 'admin', role: 'ADMIN' };

const pagedRoute = defineRoute({
  method: 'GET',
  path: '/things',
  summary: 'test route with a query',
  tag: 'test',
  auth: 'user',
  query: z.object({ offset: z.number().optional(), tag: z.array(z.string()).optional() }),
  response: z.array(z.string()),
});

function setup(handlers: Parameters<typeof createFetchMock>[0], options: Partial<ApiClientOptions> = {}) {
  const mock = createFetchMock(handlers);
  const onUnauthorized = vi.fn();
  const api = createApiClient({
    apiBase: '/api/v1/',
    fetch: mock.fetch,
    getToken: () => 'token-1',
    onUnauthorized,
    readCookies: () => 'theme=dark; XSRF-TOKEN=xsrf%20value; other=1',
    ...options,
  });
  return { api, mock, onUnauthorized };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('api client', () => {
  it('builds the URL from the route table and parses the body with the route schema', async () => {
    const { api, mock } = setup({
      [`GET /api/v1/accounts/${userAccount.id}`]: () => jsonResponse({ ...userAccount, extra: 'dropped' }),
    });
    const account = await api.call(accountRoutes.get, { params: { id: userAccount.id } });
    expect(account).toEqual(userAccount);
    expect(mock.requests[0]?.url.pathname).toBe(`/api/v1/accounts/${userAccount.id}`);
  });

  it('sends the current token as a bearer header', async () => {
    const { api, mock } = setup({ 'GET /api/v1/accounts': () => jsonResponse([adminAccount]) });
    await api.call(accountRoutes.list);
    expect(mock.requests[0]?.headers.get('Authorization')).toBe('Bearer token-1');
  });

  it('sends no authorization header without a token, or when the call says so', async () => {
    const { api, mock } = setup(
      {
        'GET /api/v1/accounts': () => jsonResponse([]),
        'POST /api/v1/login': () => jsonResponse({ token: 't' }),
      },
      { getToken: () => null },
    );
    await api.call(accountRoutes.list);
    const withOverride = createApiClient({ apiBase: '/api/v1', fetch: mock.fetch, getToken: () => 'token-1' });
    await withOverride.call(authRoutes.login, { body: { username: 'a', password: 'b' }, token: null });
    expect(mock.requests.map((request) => request.headers.has('Authorization'))).toEqual([false, false]);
  });

  it('copies the anti-forgery cookie into the header on non-GET relative requests', async () => {
    const { api, mock } = setup({
      'POST /api/v1/accounts': () => jsonResponse(userAccount, 201),
      'GET /api/v1/accounts': () => jsonResponse([]),
    });
    await api.call(accountRoutes.create, { body: { username: 'alice', password: 'secret1' } });
    await api.call(accountRoutes.list);
    const [post, get] = mock.requests;
    expect(post?.headers.get('X-XSRF-TOKEN')).toBe('xsrf value');
    expect(get?.headers.has('X-XSRF-TOKEN')).toBe(false);
  });

  it('never sends the anti-forgery header to an absolute URL', async () => {
    const { api, mock } = setup(
      { 'POST /api/v1/logout': () => emptyResponse() },
      { apiBase: 'https://api.example.com/api/v1' },
    );
    await api.call(authRoutes.logout);
    expect(mock.requests[0]?.url.href).toBe('https://api.example.com/api/v1/logout');
    expect(mock.requests[0]?.headers.has('X-XSRF-TOKEN')).toBe(false);
  });

  it('sends no anti-forgery header when the cookie is absent', async () => {
    const { api, mock } = setup({ 'POST /api/v1/logout': () => emptyResponse() }, { readCookies: () => '' });
    await api.call(authRoutes.logout);
    expect(mock.requests[0]?.headers.has('X-XSRF-TOKEN')).toBe(false);
  });

  it('sends a JSON body with its content type, and no content type without a body', async () => {
    const { api, mock } = setup({
      'POST /api/v1/login': () => jsonResponse({ token: 't' }),
      'POST /api/v1/logout': () => emptyResponse(),
    });
    await api.call(authRoutes.login, { body: { username: 'a', password: 'b' } });
    await api.call(authRoutes.logout);
    const [login, logout] = mock.requests;
    expect(login?.headers.get('Content-Type')).toBe('application/json');
    expect(login?.body).toEqual({ username: 'a', password: 'b' });
    expect(logout?.headers.has('Content-Type')).toBe(false);
    expect(logout?.body).toBeUndefined();
  });

  it('answers undefined for a 204 route', async () => {
    const { api } = setup({ 'POST /api/v1/logout': () => emptyResponse(204) });
    await expect(api.call(authRoutes.logout)).resolves.toBeUndefined();
  });

  it('encodes the query and exposes the status and response headers', async () => {
    const { api, mock } = setup({
      'GET /api/v1/things': () => jsonResponse(['a'], 200, { 'X-Total-Count': '42' }),
    });
    const response = await api.send(pagedRoute, { query: { offset: 0, tag: ['x', 'y z'] } });
    expect(mock.requests[0]?.url.search).toBe('?offset=0&tag=x&tag=y+z');
    expect(response.data).toEqual(['a']);
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Total-Count')).toBe('42');
  });

  it('throws an ApiError with the server message, code and field errors', async () => {
    const errors = [{ path: 'username', message: 'Taken' }];
    const { api } = setup({
      'POST /api/v1/accounts': () => errorResponse(409, 'Username already exists', { code: 'CONFLICT', errors }),
    });
    const error = await failure(api.call(accountRoutes.create, { body: { username: 'a', password: 'secret1' } }));
    expect(error).toMatchObject({ status: 409, serverMessage: 'Username already exists', code: 'CONFLICT', errors });
    expect(error.message).toBe('Username already exists');
  });

  it('throws an ApiError without a server message when the error body is not the error shape', async () => {
    const { api } = setup({ 'GET /api/v1/accounts': () => new Response('<html>oops</html>', { status: 502 }) });
    const error = await failure(api.call(accountRoutes.list));
    expect(error.status).toBe(502);
    expect(error.serverMessage).toBeUndefined();
  });

  it('throws an ApiError with status 0 when the request got no answer', async () => {
    const { api } = setup({ 'GET /api/v1/accounts': networkFailure });
    const error = await failure(api.call(accountRoutes.list));
    expect(error.status).toBe(0);
  });

  it('rethrows an abort as it is', async () => {
    const controller = new AbortController();
    const { api } = setup({
      'GET /api/v1/accounts': () => {
        controller.abort();
        throw new DOMException('Aborted', 'AbortError');
      },
    });
    await expect(api.call(accountRoutes.list, { signal: controller.signal })).rejects.toHaveProperty(
      'name',
      'AbortError',
    );
  });

  it('rejects a success body that does not match the route schema', async () => {
    const { api } = setup({ 'GET /api/v1/accounts/whoami': () => jsonResponse({ id: 'not-a-uuid' }) });
    const error = await failure(api.call(accountRoutes.whoami));
    expect(error).toMatchObject({ status: 200, code: 'INVALID_RESPONSE' });
  });

  it('reports a 401 to an authenticated call as lost authentication', async () => {
    const { api, onUnauthorized } = setup({ 'GET /api/v1/accounts': () => errorResponse(401, 'Expired') });
    await failure(api.call(accountRoutes.list));
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('does not report a 401 to a call that carried no token, nor a 403', async () => {
    const { api, onUnauthorized } = setup({
      'POST /api/v1/login': () => errorResponse(401),
      'GET /api/v1/accounts': () => errorResponse(403),
    });
    await failure(api.call(authRoutes.login, { body: { username: 'a', password: 'b' }, token: null }));
    await failure(api.call(accountRoutes.list));
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('answers the bytes of an image route as a Blob with its type, and its errors as ApiError', async () => {
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    const image = '/api/v1/snapshots/stream/s1/incoming/image';
    const { api, mock } = setup({
      [`GET ${image}`]: (request) =>
        request.url.searchParams.get('t') === 'gone'
          ? errorResponse(404, 'Snapshot not found')
          : new Response(bytes, { status: 200, headers: { 'Content-Type': 'image/png' } }),
    });
    const blob = await api.blob(snapshotRoutes.image, {
      params: { streamId: 's1', direction: 'incoming' },
      query: { t: '1' },
    });
    expect(blob.type).toBe('image/png');
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(bytes);
    expect(mock.requests[0]?.headers.get('Authorization')).toBe('Bearer token-1');
    expect(mock.requests[0]?.headers.get('Accept')).toBe('image/*');
    const error = await failure(
      api.blob(snapshotRoutes.image, { params: { streamId: 's1', direction: 'incoming' }, query: { t: 'gone' } }),
    );
    expect(error.status).toBe(404);
    expect(error.serverMessage).toBe('Snapshot not found');
  });
  it('answers the URL of a route with its filled path and query', () => {
    const { api } = setup({}, { apiBase: 'http://127.0.0.1:8080/api/v1' });
    expect(api.url(pagedRoute, { query: { offset: 10, tag: ['a'] } })).toBe(
      'http://127.0.0.1:8080/api/v1/things?offset=10&tag=a',
    );
    expect(api.url(accountRoutes.get, { params: { id: 'a b' } })).toBe('http://127.0.0.1:8080/api/v1/accounts/a%20b');
  });

  it('reads the anti-forgery cookie from an asynchronous cookie jar', async () => {
    const { api, mock } = setup(
      { 'POST /api/v1/logout': () => emptyResponse() },
      { readCookies: async () => 'XSRF-TOKEN=from-jar' },
    );
    await api.call(authRoutes.logout);
    expect(mock.requests[0]?.headers.get('X-XSRF-TOKEN')).toBe('from-jar');
  });

  it('sends no anti-forgery header where there is no document and no cookie jar (Node callers)', async () => {
    const mock = createFetchMock({ 'POST /api/v1/logout': () => emptyResponse() });
    expect('document' in globalThis).toBe(false);
    const api = createApiClient({ apiBase: '/api/v1', fetch: mock.fetch, getToken: () => 'node-token' });
    await api.call(authRoutes.logout);
    expect(mock.requests[0]?.headers.has('X-XSRF-TOKEN')).toBe(false);
    expect(mock.requests[0]?.headers.get('Authorization')).toBe('Bearer node-token');
  });

  it('fails a request that outlives the timeout like an unreachable server, and names it in logs', async () => {
    // A server that never answers: the request ends only when its signal aborts.
    const { api } = setup(
      {},
      {
        timeoutMs: 20,
        fetch: (_input, init) =>
          new Promise((_resolve, reject) => {
            init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
          }),
      },
    );
    const error = await failure(api.call(accountRoutes.list));
    expect(error.status).toBe(0);
    expect(String(error)).toMatch(/^ApiError: GET \/api\/v1\/accounts got no answer: Network failure/);
  });

  it('names the request and the status of a refusal in logs', async () => {
    const { api } = setup({ 'GET /api/v1/accounts': () => errorResponse(403, 'Forbidden') });
    const error = await failure(api.call(accountRoutes.list));
    expect(error.request).toBe('GET /api/v1/accounts');
    expect(String(error)).toBe('ApiError: GET /api/v1/accounts answered 403: Forbidden');
  });
});
