import type { Agent as HttpAgent } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { DEFAULT_S3_REGION, type StorageType } from '@streamcloud/contract';

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

/** Each S3 call of a storage check gives up after this long. */
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

export interface S3ClientOptions {
  /** Connecting and each request give up after this long. */
  timeoutMs?: number;
  /** Attempts of one call by the SDK itself (1: no retry; the caller decides). */
  maxAttempts?: number;
  /** The agents every connection goes through: the guarded ones of @streamcloud/net-guard. */
  agents?: { http: HttpAgent; https: HttpsAgent };
}

/**
 * SDK settings for a storage. Amazon S3: the regional AWS endpoint from regionName (us-east-1 when
 * blank), virtual-hosted addressing. S3-compatible: the given endpoint with path-style addressing,
 * checksums only where the operation requires them (the SDK's newer default CRC headers are refused by
 * some S3-compatible servers). Credentials are the storage's own, never the environment's.
 */
export function s3ClientConfig(target: S3Target, options: S3ClientOptions = {}): S3ClientConfig {
  const timeoutMs = options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const common: S3ClientConfig = {
    region: regionOf(target),
    credentials: { accessKeyId: target.accessKeyId, secretAccessKey: target.secretAccessKey },
    maxAttempts: options.maxAttempts ?? 1,
    followRegionRedirects: false,
    requestHandler: {
      connectionTimeout: timeoutMs,
      requestTimeout: timeoutMs,
      ...(options.agents ? { httpAgent: options.agents.http, httpsAgent: options.agents.https } : {}),
    },
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

export function createS3Client(target: S3Target, options: S3ClientOptions = {}): S3Client {
  const client = new S3Client(s3ClientConfig(target, options));
  if (options.agents) {
    // The SDK's handler destroys its agents with the client, sockets in use included; given agents are
    // the process's shared guarded ones, so that would cut every other call going through them (one
    // recording's finished upload failed the uploads of all the others). Nothing else is the client's own.
    client.destroy = () => undefined;
  }
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
