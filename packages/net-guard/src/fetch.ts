import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import type { GuardedAgents } from './agents.js';

/** The part of `fetch` the platform's outbound calls use. */
export type GuardedFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

function encodeBody(body: RequestInit['body'], headers: Headers): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') {
    if (!headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
    return Buffer.from(body);
  }
  if (body instanceof URLSearchParams) {
    if (!headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    return Buffer.from(body.toString());
  }
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError('The guarded fetch sends text, URLSearchParams or bytes only');
}

/**
 * `fetch` over the guarded agents (node:http and node:https; the global fetch has its own connection pool,
 * which the guard cannot reach). Redirects are never followed: `redirect: 'error'` makes one a failure,
 * otherwise the 3xx answer is returned. The signal aborts the request and the body.
 */
export function createGuardedFetch(agents: GuardedAgents): GuardedFetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        reject(new TypeError(`Only http and https URLs can be fetched, not ${url.protocol}`));
        return;
      }
      const signal = init.signal ?? undefined;
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const headers = new Headers(init.headers);
      let body: Buffer | undefined;
      try {
        body = encodeBody(init.body, headers);
      } catch (error) {
        reject(error);
        return;
      }
      if (body) headers.set('content-length', String(body.length));
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const request = send(url, {
        method: init.method ?? 'GET',
        headers: Object.fromEntries(headers),
        agent: url.protocol === 'https:' ? agents.https : agents.http,
      });
      const onAbort = () => {
        request.destroy(signal?.reason);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      request.once('error', (error) => {
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      });
      request.once('response', (message: IncomingMessage) => {
        const status = message.statusCode ?? 0;
        if (init.redirect === 'error' && status >= 300 && status < 400) {
          message.destroy();
          reject(new TypeError(`Redirect to ${message.headers.location ?? 'elsewhere'} refused`));
          return;
        }
        // The body keeps streaming after the answer: a later abort ends it.
        message.once('close', () => signal?.removeEventListener('abort', onAbort));
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(message.headers)) {
          for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
            responseHeaders.append(name, item);
          }
        }
        try {
          const stream = NULL_BODY_STATUSES.has(status) ? null : (Readable.toWeb(message) as ReadableStream);
          if (!stream) message.resume();
          resolve(new Response(stream, { status, statusText: message.statusMessage, headers: responseHeaders }));
        } catch (error) {
          message.destroy();
          reject(error);
        }
      });
      request.end(body);
    });
}
