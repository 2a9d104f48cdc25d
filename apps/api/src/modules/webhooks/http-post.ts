import { type GuardedFetch, isUnreachable } from '@streamcloud/net-guard';

/** At most this much of an answer is read; the rest is dropped with the connection. */
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** The log keeps this much of a failed answer's body. */
const BODY_EXCERPT_CHARS = 200;

export type PostOutcome = { ok: true; statusCode: number } | { ok: false; statusCode: number | null; error: string };

const USER_AGENT = 'Streamcloud-Webhooks/1.0';

/**
 * POSTs a JSON body through the guarded fetch and answers how it went: 2xx is delivered, anything else
 * (a redirect too: the guarded fetch never follows one) is a failure with a message for the delivery log.
 * The whole exchange, answer included, has `timeoutMs`. Never throws.
 */
export async function postJson(
  fetch: GuardedFetch,
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<PostOutcome> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': USER_AGENT },
      body,
      signal,
    });
    const text = await readCapped(response);
    if (response.ok) return { ok: true, statusCode: response.status };
    const redirect =
      response.status >= 300 && response.status < 400
        ? ` (redirects are not followed: ${response.headers.get('location') ?? ''})`
        : '';
    const excerpt = text.trim().slice(0, BODY_EXCERPT_CHARS);
    return {
      ok: false,
      statusCode: response.status,
      error: `HTTP ${response.status}${redirect}${excerpt ? `: ${excerpt}` : ''}`,
    };
  } catch (error) {
    return { ok: false, statusCode: null, error: describe(error, signal, timeoutMs) };
  }
}

/** The answer's first MAX_RESPONSE_BYTES as text; the rest is not read (the connection is dropped). */
async function readCapped(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  try {
    while (received < MAX_RESPONSE_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value.subarray(0, MAX_RESPONSE_BYTES - received));
      received += value.length;
    }
  } finally {
    if (received >= MAX_RESPONSE_BYTES) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Why the request failed. A refused address, a closed port and an unknown host read alike (the net-guard
 * rule), so the log cannot be used to map which addresses answer.
 */
function describe(error: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) return `No answer within ${timeoutMs / 1000} s`;
  if (isUnreachable(error)) return 'The receiver cannot be reached';
  if (error instanceof TypeError && /^Only http and https/.test(error.message))
    return 'Only http and https URLs are called';
  return error instanceof Error && error.message ? error.message : 'The request failed';
}
