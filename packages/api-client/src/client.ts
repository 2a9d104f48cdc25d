import {
  ANTI_FORGERY_COOKIE,
  ANTI_FORGERY_HEADER,
  type AnyRoute,
  type BodyOf,
  buildPath,
  type ParamsOf,
  type QueryOf,
  type ResponseOf,
} from '@streamcloud/contract';
import { readCookie } from './cookies.js';
import { ApiError } from './error.js';

export type { AnyRoute };

type Part<Key extends string, Value, Required extends boolean> = [Value] extends [undefined]
  ? { [K in Key]?: undefined }
  : Required extends true
    ? { [K in Key]: Value }
    : { [K in Key]?: Value };

/** Where a route is: its path parameters and query. */
export type LocateOptions<R extends AnyRoute> = Part<'params', ParamsOf<R>, true> & Part<'query', QueryOf<R>, false>;

export type CallOptions<R extends AnyRoute> = LocateOptions<R> &
  Part<'body', BodyOf<R>, true> & {
    /** Overrides the client's token: a string to send instead, null to send none. */
    token?: string | null;
    signal?: AbortSignal;
  };

/** Options may be left out when the route needs neither params nor a body. */
export type CallArgs<R extends AnyRoute> =
  object extends CallOptions<R> ? [options?: CallOptions<R>] : [options: CallOptions<R>];

export type LocateArgs<R extends AnyRoute> =
  object extends LocateOptions<R> ? [options?: LocateOptions<R>] : [options: LocateOptions<R>];

export interface ApiResponse<R extends AnyRoute> {
  data: ResponseOf<R>;
  status: number;
  headers: Headers;
}

export interface ApiClient {
  /** Calls a route and answers its body, parsed with the route's response schema (undefined for 204). */
  call<R extends AnyRoute>(route: R, ...args: CallArgs<R>): Promise<ResponseOf<R>>;
  /** Like call, with the status and response headers (e.g. X-Total-Count). */
  send<R extends AnyRoute>(route: R, ...args: CallArgs<R>): Promise<ApiResponse<R>>;
  /** Calls a route that answers bytes (a snapshot image) and answers them as a Blob with their type. */
  blob<R extends AnyRoute>(route: R, ...args: CallArgs<R>): Promise<Blob>;
  /** The URL of a route (API base, filled path, query), for callers that fetch it their own way. */
  url<R extends AnyRoute>(route: R, ...args: LocateArgs<R>): string;
}

export interface ApiClientOptions {
  /** Prefix of every route path, e.g. /api/v1 or http://127.0.0.1:8080/api/v1. */
  apiBase: string;
  /** The fetch to send with; the global one by default (browsers, Node ≥ 18). */
  fetch?: typeof fetch;
  /** The token to send as bearer, if any: a user's session token, or a media node's node token. */
  getToken?: () => string | null;
  /** Called when a request that carried a token is answered 401. */
  onUnauthorized?: () => void;
  /**
   * The cookies the next request will carry, `document.cookie` style, where the anti-forgery cookie is
   * read from: the document's in a browser; none by default elsewhere (a Node caller without a cookie
   * jar is never sent that cookie, so it needs no header).
   */
  readCookies?: () => string | Promise<string>;
  /** A request with no answer after this long fails like an unreachable server (status 0). */
  timeoutMs?: number;
}

type QueryValue = string | number | boolean | null | undefined;

function queryString(query: unknown): string {
  if (!query || typeof query !== 'object') return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query as Record<string, QueryValue | QueryValue[]>)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) search.append(key, String(item));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Absolute URLs (another origin, possibly) never get the anti-forgery header. */
function isRelativeUrl(url: string): boolean {
  return !/^([a-z][a-z\d+.-]*:)?\/\//i.test(url);
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

async function errorFromResponse(response: Response, request: string): Promise<ApiError> {
  let body: unknown;
  try {
    body = await readJson(response);
  } catch {
    body = undefined;
  }
  const { ErrorBody } = await import('./error-body.js');
  const parsed = ErrorBody.safeParse(body);
  if (!parsed.success) return new ApiError({ status: response.status, request });
  const { message, code, errors } = parsed.data;
  return new ApiError({ status: response.status, message, code, errors, request });
}

async function successBody(route: AnyRoute, response: Response, request: string): Promise<unknown> {
  if (route.response === null) return undefined;
  try {
    return route.response.parse(await readJson(response));
  } catch (cause) {
    throw new ApiError({ status: response.status, code: 'INVALID_RESPONSE', cause, request });
  }
}

/** The document's cookies in a browser; none where there is no document (Node). */
function documentCookies(): string {
  return (globalThis as { document?: { cookie?: string } }).document?.cookie ?? '';
}

/** The caller's signal and the client's timeout, whichever ends first. */
function requestSignal(signal: AbortSignal | undefined, timeoutMs: number | undefined): AbortSignal | undefined {
  if (timeoutMs === undefined) return signal;
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

/** One typed client for every caller of the API: the console, the media node, e2e support and the benchmarks. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const base = options.apiBase.replace(/\/+$/, '');
  const readCookies = options.readCookies ?? documentCookies;
  const getToken = options.getToken ?? (() => null);

  function url(route: AnyRoute, opts: Partial<LocateOptions<AnyRoute>>): string {
    return `${base}${buildPath(route.path, opts.params as Record<string, string> | undefined)}${queryString(opts.query)}`;
  }

  /** Sends the request; answers the response when it is a success, else throws its ApiError. */
  async function fetchRoute<R extends AnyRoute>(
    route: R,
    args: CallArgs<R>,
    accept: string,
  ): Promise<{ response: Response; request: string }> {
    const opts: Partial<CallOptions<AnyRoute>> = args[0] ?? {};
    const target = url(route, opts);
    const request = `${route.method} ${target}`;
    const token = opts.token === undefined ? getToken() : opts.token;

    const headers = new Headers({ Accept: accept });
    if (token) headers.set('Authorization', `Bearer ${token}`);
    if (route.method !== 'GET' && isRelativeUrl(target)) {
      const antiForgery = readCookie(ANTI_FORGERY_COOKIE, await readCookies());
      if (antiForgery) headers.set(ANTI_FORGERY_HEADER, antiForgery);
    }
    const init: RequestInit = { method: route.method, headers, credentials: 'same-origin' };
    if (opts.body !== undefined) {
      headers.set('Content-Type', 'application/json');
      init.body = JSON.stringify(opts.body);
    }
    const signal = requestSignal(opts.signal, options.timeoutMs);
    if (signal) init.signal = signal;

    let response: Response;
    try {
      response = await (options.fetch ?? globalThis.fetch)(target, init);
    } catch (cause) {
      if (opts.signal?.aborted) throw cause;
      throw new ApiError({ status: 0, cause, request });
    }
    if (!response.ok) {
      if (response.status === 401 && token) options.onUnauthorized?.();
      throw await errorFromResponse(response, request);
    }
    return { response, request };
  }

  async function send<R extends AnyRoute>(route: R, ...args: CallArgs<R>): Promise<ApiResponse<R>> {
    const { response, request } = await fetchRoute(route, args, 'application/json');
    const data = (await successBody(route, response, request)) as ResponseOf<R>;
    return { data, status: response.status, headers: response.headers };
  }

  return {
    send,
    async call(route, ...args) {
      return (await send(route, ...args)).data;
    },
    async blob(route, ...args) {
      const { response, request } = await fetchRoute(route, args, 'image/*');
      try {
        return await response.blob();
      } catch (cause) {
        throw new ApiError({ status: response.status, code: 'INVALID_RESPONSE', cause, request });
      }
    },
    url(route, ...args) {
      return url(route, args[0] ?? {});
    },
  };
}
