import {
  ANTI_FORGERY_COOKIE,
  ANTI_FORGERY_HEADER,
  type BodyOf,
  buildPath,
  ErrorBody,
  type ParamsOf,
  type QueryOf,
  type ResponseOf,
  type RouteDef,
} from '@streamcloud/contract';
import { ApiError } from './api-error';
import { readCookie } from './cookies';

// biome-ignore lint/suspicious/noExplicitAny: matches every route of the contract's table
export type AnyRoute = RouteDef<any, any, any, any>;

type Part<Key extends string, Value, Required extends boolean> = [Value] extends [undefined]
  ? { [K in Key]?: undefined }
  : Required extends true
    ? { [K in Key]: Value }
    : { [K in Key]?: Value };

export type CallOptions<R extends AnyRoute> = Part<'params', ParamsOf<R>, true> &
  Part<'query', QueryOf<R>, false> &
  Part<'body', BodyOf<R>, true> & {
    /** Overrides the current token: a string to send instead, null to send none. */
    token?: string | null;
    signal?: AbortSignal;
  };

/** Options may be left out when the route needs neither params nor a body. */
export type CallArgs<R extends AnyRoute> =
  object extends CallOptions<R> ? [options?: CallOptions<R>] : [options: CallOptions<R>];

export interface ApiResponse<R extends AnyRoute> {
  data: ResponseOf<R>;
  status: number;
  headers: Headers;
}

export interface ApiClient {
  /** Calls a route and answers its parsed body (undefined for 204). */
  call<R extends AnyRoute>(route: R, ...args: CallArgs<R>): Promise<ResponseOf<R>>;
  /** Like call, with the status and response headers (e.g. X-Total-Count). */
  send<R extends AnyRoute>(route: R, ...args: CallArgs<R>): Promise<ApiResponse<R>>;
  /** Calls a route that answers bytes (a snapshot image) and answers them as a Blob with their type. */
  blob<R extends AnyRoute>(route: R, ...args: CallArgs<R>): Promise<Blob>;
}

export interface ApiClientOptions {
  /** Prefix of every route path, e.g. /api/v1 or https://api.example.com/api/v1. */
  apiBase: string;
  fetch: typeof fetch;
  /** The token to send as bearer, if any. */
  getToken: () => string | null;
  /** Called when a request that carried a token is answered 401. */
  onUnauthorized?: () => void;
  /** The document's cookies, `document.cookie` style. */
  readCookies?: () => string;
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

async function errorFromResponse(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await readJson(response);
  } catch {
    body = undefined;
  }
  const parsed = ErrorBody.safeParse(body);
  if (!parsed.success) return new ApiError({ status: response.status });
  const { message, code, errors } = parsed.data;
  return new ApiError({ status: response.status, message, code, errors });
}

async function successBody(route: AnyRoute, response: Response): Promise<unknown> {
  if (route.response === null) return undefined;
  try {
    return route.response.parse(await readJson(response));
  } catch (cause) {
    throw new ApiError({ status: response.status, code: 'INVALID_RESPONSE', cause });
  }
}

function defaultCookies(): string {
  return typeof document === 'undefined' ? '' : document.cookie;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const base = options.apiBase.replace(/\/+$/, '');
  const readCookies = options.readCookies ?? defaultCookies;

  /** Sends the request; answers the response when it is a success, else throws its ApiError. */
  async function fetchRoute<R extends AnyRoute>(route: R, args: CallArgs<R>, accept: string): Promise<Response> {
    const opts: Partial<CallOptions<AnyRoute>> = args[0] ?? {};
    const url = `${base}${buildPath(route.path, opts.params as Record<string, string> | undefined)}${queryString(opts.query)}`;
    const token = opts.token === undefined ? options.getToken() : opts.token;

    const headers = new Headers({ Accept: accept });
    if (token) headers.set('Authorization', `Bearer ${token}`);
    if (route.method !== 'GET' && isRelativeUrl(url)) {
      const antiForgery = readCookie(ANTI_FORGERY_COOKIE, readCookies());
      if (antiForgery) headers.set(ANTI_FORGERY_HEADER, antiForgery);
    }
    const init: RequestInit = { method: route.method, headers, credentials: 'same-origin' };
    if (opts.body !== undefined) {
      headers.set('Content-Type', 'application/json');
      init.body = JSON.stringify(opts.body);
    }
    if (opts.signal) init.signal = opts.signal;

    let response: Response;
    try {
      response = await options.fetch(url, init);
    } catch (cause) {
      if (opts.signal?.aborted) throw cause;
      throw new ApiError({ status: 0, cause });
    }
    if (!response.ok) {
      if (response.status === 401 && token) options.onUnauthorized?.();
      throw await errorFromResponse(response);
    }
    return response;
  }

  async function send<R extends AnyRoute>(route: R, ...args: CallArgs<R>): Promise<ApiResponse<R>> {
    const response = await fetchRoute(route, args, 'application/json');
    const data = (await successBody(route, response)) as ResponseOf<R>;
    return { data, status: response.status, headers: response.headers };
  }

  return {
    send,
    async call(route, ...args) {
      return (await send(route, ...args)).data;
    },
    async blob(route, ...args) {
      const response = await fetchRoute(route, args, 'image/*');
      try {
        return await response.blob();
      } catch (cause) {
        throw new ApiError({ status: response.status, code: 'INVALID_RESPONSE', cause });
      }
    },
  };
}
