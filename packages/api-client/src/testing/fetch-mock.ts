/** A fetch stand-in answering from handlers keyed by "METHOD /path"; the edge of every unit test. */

export interface RecordedRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

export type Handler = (request: RecordedRequest) => Response | Promise<Response>;

export interface FetchMock {
  fetch: typeof fetch;
  requests: RecordedRequest[];
  /** Requests that matched no handler; setup.ts fails the test when any are left. */
  unhandled: string[];
  on(key: string, handler: Handler): void;
}

const ORIGIN = 'http://localhost';
const live = new Set<FetchMock>();

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export function emptyResponse(status = 204): Response {
  return new Response(null, { status });
}

export function errorResponse(status: number, message = 'Failed', extra: Record<string, unknown> = {}): Response {
  return jsonResponse({ message, ...extra }, status);
}

/** A handler that fails like an unreachable server. */
export const networkFailure: Handler = () => {
  throw new TypeError('Failed to fetch');
};

export function createFetchMock(handlers: Record<string, Handler> = {}): FetchMock {
  const table = new Map(Object.entries(handlers));
  const mock: FetchMock = {
    requests: [],
    unhandled: [],
    on: (key, handler) => {
      table.set(key, handler);
    },
    fetch: async (input, init) => {
      const url = new URL(String(input), ORIGIN);
      const method = init?.method ?? 'GET';
      const text = typeof init?.body === 'string' ? init.body : undefined;
      const request: RecordedRequest = {
        method,
        url,
        headers: new Headers(init?.headers),
        body: text === undefined ? undefined : JSON.parse(text),
      };
      mock.requests.push(request);
      const key = `${method} ${url.pathname}`;
      const handler = table.get(key) ?? prefixHandler(table, key);
      if (!handler) {
        mock.unhandled.push(key);
        throw new Error(`Unhandled request ${key}`);
      }
      return handler(request);
    },
  };
  live.add(mock);
  return mock;
}

/** A handler keyed "METHOD /path/*" answers every path under that prefix. */
function prefixHandler(table: Map<string, Handler>, key: string): Handler | undefined {
  for (const [pattern, handler] of table) {
    if (pattern.endsWith('/*') && key.startsWith(pattern.slice(0, -1))) return handler;
  }
  return undefined;
}

/** Called after each test: every request must have had a handler. */
export function takeUnhandledRequests(): string[] {
  const keys = [...live].flatMap((mock) => mock.unhandled);
  live.clear();
  return keys;
}
