import http from 'node:http';
import https from 'node:https';
import type { OutboundAgents } from './outbound-agents.js';

/** At most this much of an answer is read; the rest is dropped with the connection. */
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** The log keeps this much of a failed answer's body. */
const BODY_EXCERPT_CHARS = 200;

export type PostOutcome = { ok: true; statusCode: number } | { ok: false; statusCode: number | null; error: string };

const USER_AGENT = 'Streamcloud-Webhooks/1.0';

/**
 * POSTs a JSON body and answers how it went: 2xx is delivered, anything else (a redirect too: none is
 * followed) is a failure with a message for the delivery log. Never throws.
 */
export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  agents: OutboundAgents,
  timeoutMs: number,
): Promise<PostOutcome> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ ok: false, statusCode: null, error: 'The URL is not valid' });
      return;
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      resolve({ ok: false, statusCode: null, error: 'Only http and https URLs are called' });
      return;
    }
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const send = target.protocol === 'https:' ? https.request : http.request;
    const request = send(
      target,
      {
        method: 'POST',
        agent: target.protocol === 'https:' ? agents.https : agents.http,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': USER_AGENT,
        },
      },
      (response) => {
        const statusCode = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let received = 0;
        const done = () => {
          if (statusCode >= 200 && statusCode < 300) return finish({ ok: true, statusCode });
          const text = Buffer.concat(chunks).toString('utf8').trim().slice(0, BODY_EXCERPT_CHARS);
          const redirect =
            statusCode >= 300 && statusCode < 400
              ? ` (redirects are not followed: ${response.headers.location ?? ''})`
              : '';
          finish({ ok: false, statusCode, error: `HTTP ${statusCode}${redirect}${text ? `: ${text}` : ''}` });
        };
        response.on('data', (chunk: Buffer) => {
          if (received >= MAX_RESPONSE_BYTES) return;
          chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - received));
          received += chunk.length;
          if (received >= MAX_RESPONSE_BYTES) {
            // Enough: the rest of an oversized answer is not read.
            response.destroy();
            done();
          }
        });
        response.on('end', done);
        response.on('error', () => done());
        response.on('close', done);
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({ ok: false, statusCode: null, error: `No answer within ${timeoutMs / 1000} s` });
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      finish({ ok: false, statusCode: null, error: describe(error) });
    });
    request.end(body);
  });
}

function describe(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'Connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'The host name does not resolve';
    case 'ECONNRESET':
      return 'The connection was reset';
    case 'ETIMEDOUT':
      return 'The connection timed out';
    default:
      return error.message || 'The request failed';
  }
}
