import { randomUUID } from 'node:crypto';
import {
  DeleteObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { DEFAULT_S3_REGION, type StorageCheck, type StorageCheckResult, type StorageType } from '@streamcloud/contract';

/** Where and how to reach a bucket: a storage with its secret in clear (only ever held in memory). */
export interface S3Target {
  type: StorageType;
  accessKeyId: string;
  secretAccessKey: string;
  regionName: string | null;
  bucket: string;
  path: string | null;
  endpoint: string | null;
}

/** Each S3 call of the check gives up after this long. */
export const DEFAULT_CHECK_TIMEOUT_MS = 5_000;

export const regionOf = (target: Pick<S3Target, 'regionName'>) => target.regionName || DEFAULT_S3_REGION;

/** The host the requests go to, for messages. */
export function hostOf(target: Pick<S3Target, 'type' | 'regionName' | 'endpoint'>): string {
  if (target.type === 'AmazonS3Compatible' && target.endpoint) {
    try {
      return new URL(target.endpoint).host;
    } catch {
      return target.endpoint;
    }
  }
  return `s3.${regionOf(target)}.amazonaws.com`;
}

/** The object key prefix recordings (and the check's marker) go under: the path without outer slashes. */
export function keyPrefix(path: string | null): string {
  const trimmed = (path ?? '').replace(/^\/+|\/+$/g, '');
  return trimmed ? `${trimmed}/` : '';
}

/**
 * SDK settings for a storage. Amazon S3: the regional AWS endpoint from regionName (us-east-1 when
 * blank), virtual-hosted addressing. S3-compatible: the given endpoint with path-style addressing,
 * checksums only where the operation requires them (the SDK's newer default CRC headers are refused by
 * some S3-compatible servers). Credentials are the storage's own, never the environment's; no retries.
 */
export function s3ClientConfig(target: S3Target, timeoutMs = DEFAULT_CHECK_TIMEOUT_MS): S3ClientConfig {
  const common: S3ClientConfig = {
    region: regionOf(target),
    credentials: { accessKeyId: target.accessKeyId, secretAccessKey: target.secretAccessKey },
    maxAttempts: 1,
    followRegionRedirects: false,
    requestHandler: { connectionTimeout: timeoutMs, requestTimeout: timeoutMs },
  };
  if (target.type === 'AmazonS3Compatible') {
    return {
      ...common,
      endpoint: target.endpoint ?? undefined,
      forcePathStyle: true,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    };
  }
  return { ...common, forcePathStyle: false };
}

/**
 * A client for a storage. For path-style requests on the bucket itself (HeadBucket, ListObjectsV2) the
 * SDK sends `/bucket/`; some S3-compatible servers (s3rver among them) sign that as `/bucket` and refuse
 * the signature. Sending `/bucket`, as the v2 SDK and boto3 do, is accepted by AWS and every
 * S3-compatible server we know.
 */
const BUCKET_COMMANDS = new Set(['HeadBucketCommand', 'ListObjectsV2Command']);

export function createS3Client(target: S3Target, timeoutMs = DEFAULT_CHECK_TIMEOUT_MS): S3Client {
  const client = new S3Client(s3ClientConfig(target, timeoutMs));
  if (target.type === 'AmazonS3Compatible') {
    const bucketRoot = `/${encodeURIComponent(target.bucket)}/`;
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const request = args.request as { path?: string };
        const onBucket = BUCKET_COMMANDS.has(context.commandName ?? '');
        if (onBucket && typeof request.path === 'string' && request.path.endsWith(bucketRoot)) {
          request.path = request.path.slice(0, -1);
        }
        return next(args);
      },
      { step: 'build', name: 'streamcloudBucketRootPath' },
    );
  }
  return client;
}

interface SdkError {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
  $response?: { headers?: Record<string, string | undefined> };
}

type Operation = 'bucket' | 'write' | 'cleanup';

const TLS_ERROR = /^(CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_TLS_|ERR_SSL_|ERR_OSSL_)/;

/** A failure of one S3 call, in words that say what to fix. Never includes credentials. */
export function describeFailure(
  error: unknown,
  target: S3Target,
  operation: Operation,
  key: string,
  timeoutMs = DEFAULT_CHECK_TIMEOUT_MS,
): string {
  const e = (error ?? {}) as SdkError;
  const host = hostOf(target);
  const code = e.code ?? '';
  const name = e.name ?? '';
  if (name === 'TimeoutError' || name === 'AbortError' || code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') {
    return `No answer from ${host} within ${timeoutMs / 1000} s: check the ${target.type === 'AmazonS3' ? 'region name' : 'endpoint'} and that the server is up`;
  }
  if (code === 'ECONNREFUSED') return `Connection refused by ${host}: is the endpoint's host and port right?`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `Host ${host.replace(/:\d+$/, '')} not found (DNS)`;
  if (code === 'ECONNRESET' || code === 'EPIPE') return `The connection to ${host} was closed unexpectedly`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `${host} cannot be reached from the control plane`;
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

/**
 * Checks a storage for real: the bucket answers HeadBucket, a small marker can be written under the
 * storage's path, and removed again. Every outcome is an answer, never a thrown error.
 */
export class S3ConnectionChecker {
  constructor(private readonly timeoutMs = DEFAULT_CHECK_TIMEOUT_MS) {}

  async check(target: S3Target): Promise<StorageCheckResult> {
    const key = `${keyPrefix(target.path)}.streamcloud-check-${randomUUID()}`;
    const client = createS3Client(target, this.timeoutMs);
    const options = () => ({ abortSignal: AbortSignal.timeout(this.timeoutMs) });
    const checks: StorageCheck[] = [];
    try {
      try {
        await client.send(new HeadBucketCommand({ Bucket: target.bucket }), options());
        checks.push({
          name: 'bucket',
          ok: true,
          message: `Bucket "${target.bucket}" is reachable at ${hostOf(target)}`,
        });
      } catch (headError) {
        const error = await this.explainForbidden(client, target, headError);
        checks.push({
          name: 'bucket',
          ok: false,
          message: describeFailure(error, target, 'bucket', key, this.timeoutMs),
        });
        checks.push({ name: 'write', ok: false, message: 'Not tried: the bucket is not reachable' });
        checks.push({ name: 'cleanup', ok: false, message: 'Not tried: nothing was written' });
        return { ok: false, checks };
      }
      try {
        await client.send(
          new PutObjectCommand({
            Bucket: target.bucket,
            Key: key,
            Body: 'Streamcloud connection check; safe to delete.\n',
            ContentType: 'text/plain',
          }),
          options(),
        );
        checks.push({ name: 'write', ok: true, message: `Wrote the test object "${key}"` });
      } catch (error) {
        checks.push({
          name: 'write',
          ok: false,
          message: describeFailure(error, target, 'write', key, this.timeoutMs),
        });
        checks.push({ name: 'cleanup', ok: false, message: 'Not tried: nothing was written' });
        return { ok: false, checks };
      }
      try {
        await client.send(new DeleteObjectCommand({ Bucket: target.bucket, Key: key }), options());
        checks.push({ name: 'cleanup', ok: true, message: `Deleted the test object "${key}"` });
      } catch (error) {
        checks.push({
          name: 'cleanup',
          ok: false,
          message: `${describeFailure(error, target, 'cleanup', key, this.timeoutMs)}. Recording needs only write permission; delete "${key}" by hand.`,
        });
      }
      return { ok: true, checks };
    } finally {
      client.destroy();
    }
  }

  /**
   * A HEAD answer has no body, so a 403 does not say whether the secret is wrong, the key unknown or a
   * permission missing. Listing (at most one key, under the path) answers the same refusal with its code.
   */
  private async explainForbidden(client: S3Client, target: S3Target, headError: unknown): Promise<unknown> {
    if ((headError as SdkError).$metadata?.httpStatusCode !== 403) return headError;
    try {
      await client.send(
        new ListObjectsV2Command({ Bucket: target.bucket, MaxKeys: 1, Prefix: keyPrefix(target.path) || undefined }),
        { abortSignal: AbortSignal.timeout(this.timeoutMs) },
      );
      return headError;
    } catch (listError) {
      const name = (listError as SdkError).name;
      return (listError as SdkError).$metadata?.httpStatusCode === 403 && name && name !== 'Unknown'
        ? listError
        : headError;
    }
  }
}
