import type { APIRequestContext } from '@playwright/test';
import { type ApiClient, createApiClient } from '@streamcloud/api-client';
import { API_BASE } from '@streamcloud/contract';

/** Statuses whose answers have no body (a fetch Response refuses one). */
const BODILESS = new Set([101, 204, 205, 304]);

/** fetch over a Playwright request context: its base URL, its cookie jar, its traces. */
function fetchThrough(request: APIRequestContext): typeof fetch {
  return async (input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const answer = await request.fetch(String(input), {
      method: init?.method ?? 'GET',
      headers,
      ...(typeof init?.body === 'string' ? { data: init.body } : {}),
    });
    return new Response(BODILESS.has(answer.status()) ? null : new Uint8Array(await answer.body()), {
      status: answer.status(),
      statusText: answer.statusText(),
      headers: answer.headersArray().map(({ name, value }): [string, string] => [name, value]),
    });
  };
}

/**
 * The typed API client (the console's own, from packages/api-client) as `token`, or anonymous, over the
 * request context: it echoes the anti-forgery cookie the server set in that context on writes, and a
 * refused call throws an ApiError naming the request, the status and the server's message.
 */
export function api(request: APIRequestContext, token: string | null = null): ApiClient {
  return createApiClient({
    apiBase: API_BASE,
    fetch: fetchThrough(request),
    getToken: () => token,
    readCookies: async () =>
      (await request.storageState()).cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; '),
  });
}
