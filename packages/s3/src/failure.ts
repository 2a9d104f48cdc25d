import { DEFAULT_CHECK_TIMEOUT_MS, hostOf, regionOf, type S3Target } from './client.js';

export interface SdkError {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
  $response?: { headers?: Record<string, string | undefined> };
}

/** What was tried: reaching the bucket, writing an object, or removing it. */
export type S3Operation = 'bucket' | 'write' | 'cleanup';

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EADDRNOTAVAIL',
  'ERR_ADDRESS_BLOCKED',
]);

const TLS_ERROR = /^(CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_TLS_|ERR_SSL_|ERR_OSSL_)/;

/**
 * A failure of one S3 call, in words that say what to fix. Never includes credentials. `from` names who
 * could not reach the server ('the control plane', 'node eu-1').
 */
export function describeFailure(
  error: unknown,
  target: S3Target,
  operation: S3Operation,
  key: string,
  timeoutMs = DEFAULT_CHECK_TIMEOUT_MS,
  from = 'the control plane',
): string {
  const e = (error ?? {}) as SdkError;
  const host = hostOf(target);
  const code = e.code ?? '';
  const name = e.name ?? '';
  if (name === 'TimeoutError' || name === 'AbortError' || code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') {
    return `No answer from ${host} within ${timeoutMs / 1000} s: check the ${target.type === 'AmazonS3' ? 'region name' : 'endpoint'} and that the server is up`;
  }
  // Refused, unknown, unreachable or not allowed (net-guard) read alike: an answer must not tell an open
  // port from a closed one, nor a refused address from an unreachable one.
  if (UNREACHABLE.has(code)) {
    return `${host} cannot be reached from ${from}: check the ${target.type === 'AmazonS3' ? 'region name' : "endpoint's host and port"} (private, loopback and link-local addresses are refused unless the operator allows private networks)`;
  }
  if (code === 'ECONNRESET' || code === 'EPIPE') return `The connection to ${host} was closed unexpectedly`;
  if (TLS_ERROR.test(code)) return `TLS failure talking to ${host}: ${e.message ?? code}`;

  const status = e.$metadata?.httpStatusCode;
  const where = operation === 'bucket' ? `bucket "${target.bucket}"` : `"${key}" in bucket "${target.bucket}"`;
  switch (name) {
    case 'SignatureDoesNotMatch':
      return 'The secret access key is wrong: the server refused the request signature (SignatureDoesNotMatch)';
    case 'InvalidAccessKeyId':
      return 'The access key ID is not known to the server (InvalidAccessKeyId)';
    case 'NoSuchBucket':
      return `Bucket "${target.bucket}" does not exist (NoSuchBucket)`;
    case 'AccessDenied':
      return `Access denied to ${where}: the credentials lack permission (AccessDenied)`;
    case 'AuthorizationHeaderMalformed':
    case 'PermanentRedirect':
    case 'IllegalLocationConstraintException':
      return `The bucket is in another region than ${regionOf(target)}: check the region name (${name})`;
  }
  if (status === 301 || status === 307) {
    const region = e.$response?.headers?.['x-amz-bucket-region'];
    return `The bucket is in another region${region ? ` (${region})` : ''} than ${regionOf(target)}: check the region name`;
  }
  if (status === 404) return `Bucket "${target.bucket}" does not exist (HTTP 404)`;
  if (status === 403) {
    // A HEAD answer has no body: a wrong secret, an unknown key and a missing permission all look alike.
    return `Access denied to ${where} (HTTP 403): the access key ID or secret is wrong, or lacks permission`;
  }
  if (status === 400)
    return `The server refused the request (HTTP 400${name && name !== 'Unknown' ? `, ${name}` : ''})`;
  if (status !== undefined && status >= 500) return `The server failed (HTTP ${status}): try again later`;
  if (status !== undefined) {
    return `Unexpected answer from ${host} (HTTP ${status}${name && name !== 'Unknown' ? `, ${name}` : ''}): is it an S3 server?`;
  }
  return `Could not talk to ${host}: ${e.message || name || 'unknown error'}`;
}

/** S3 error names that a later attempt may not meet (the server was busy or the request too slow). */
const TRANSIENT_NAMES = new Set([
  'TimeoutError',
  'AbortError',
  'RequestTimeout',
  'RequestTimeTooSkewed',
  'SlowDown',
  'Throttling',
  'ThrottlingException',
  'InternalError',
  'ServiceUnavailable',
]);
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * Whether trying again later may succeed: the network, a timeout, throttling or a server failure (5xx).
 * Wrong credentials, a missing bucket or a refused permission are not: retrying would only repeat them.
 */
export function isTransientFailure(error: unknown): boolean {
  const e = (error ?? {}) as SdkError;
  if (TRANSIENT_NAMES.has(e.name ?? '') || TRANSIENT_CODES.has(e.code ?? '')) return true;
  const status = e.$metadata?.httpStatusCode;
  return status !== undefined && (status >= 500 || status === 429);
}
