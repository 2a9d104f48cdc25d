import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createS3Client, type S3ClientOptions, type S3Target } from './client.js';
import { describeFailure, isTransientFailure } from './failure.js';

/** Waits between attempts of an upload that failed for a reason that may pass (network, 5xx, throttling). */
export const UPLOAD_BACKOFF_MS = [1000, 2000, 4000, 8000, 16_000, 32_000];
/** Each S3 request (one part) gives up after this long. */
const REQUEST_TIMEOUT_MS = 60_000;
/** S3 takes at most 10,000 parts: bigger files get bigger parts. */
const MIN_PART_BYTES = 8 * 1024 * 1024;
const MAX_PARTS = 9000;

export interface UploadRequest {
  target: S3Target;
  /** Every connection to the storage goes through these (the media node's: net-guard's, the operator's address policy). */
  agents: NonNullable<S3ClientOptions['agents']>;
  key: string;
  file: string;
  contentType: string;
  /** Who uploads, for messages ('node eu-1'). */
  from: string;
  /** Bytes of this attempt sent so far. */
  onProgress(bytes: number): void;
  /** A transient failure: the attempt after `waitMs` follows. */
  onRetry?(message: string, waitMs: number): void;
  signal: AbortSignal;
  backoffMs?: readonly number[];
}

/** The upload failed for good: what the storage answered, in words (and never a credential). */
export class UploadFailure extends Error {}

/**
 * Uploads a finished file to the storage as one object (one PutObject, or multipart with
 * @aws-sdk/lib-storage and parts in parallel when it is larger than a part), confirms it with HeadObject (the object has the file's size), and answers that size.
 * Transient failures are retried with backoff; the rest end at once with the storage's answer (an address
 * the operator's policy refuses reads like one that cannot be reached, and is not retried).
 */
export async function uploadFile(request: UploadRequest): Promise<{ size: number }> {
  const { target, key, file, signal } = request;
  const size = (await stat(file)).size;
  const backoff = request.backoffMs ?? UPLOAD_BACKOFF_MS;
  for (let attempt = 0; ; attempt++) {
    const client = createS3Client(target, { timeoutMs: REQUEST_TIMEOUT_MS, maxAttempts: 3, agents: request.agents });
    try {
      request.onProgress(0);
      const partSize = Math.max(MIN_PART_BYTES, Math.ceil(size / MAX_PARTS));
      if (size <= partSize) await putObject(client, request, size);
      else await multipartUpload(client, request, partSize);
      const head = await client.send(new HeadObjectCommand({ Bucket: target.bucket, Key: key }), {
        abortSignal: signal,
      });
      if (head.ContentLength !== size)
        throw new UploadFailure(
          `The storage holds ${head.ContentLength ?? 'no'} bytes for "${key}" after the upload of ${size}`,
        );
      request.onProgress(size);
      return { size };
    } catch (error) {
      if (signal.aborted) throw error;
      if (error instanceof UploadFailure) throw error;
      const message = describeFailure(error, target, 'write', key, REQUEST_TIMEOUT_MS, request.from);
      const wait = backoff[attempt];
      if (!isTransientFailure(error) || wait === undefined) throw new UploadFailure(message);
      request.onRetry?.(message, wait);
      await sleep(wait, signal);
    } finally {
      client.destroy();
    }
  }
}

/**
 * A file of one part is sent as one PutObject from the file itself, counted as the request consumes it
 * (lib-storage would read it whole first and tell the progress only at the end).
 */
async function putObject(client: S3Client, request: UploadRequest, size: number): Promise<void> {
  let sent = 0;
  const counted = createReadStream(request.file).pipe(
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        sent += chunk.length;
        request.onProgress(sent);
        done(null, chunk);
      },
    }),
  );
  await client.send(
    new PutObjectCommand({
      Bucket: request.target.bucket,
      Key: request.key,
      Body: counted,
      ContentLength: size,
      ContentType: request.contentType,
    }),
    { abortSignal: request.signal },
  );
}

/** A larger file goes up in parts, several at once (@aws-sdk/lib-storage); progress is told per part. */
async function multipartUpload(client: S3Client, request: UploadRequest, partSize: number): Promise<void> {
  const upload = new Upload({
    client,
    params: {
      Bucket: request.target.bucket,
      Key: request.key,
      Body: createReadStream(request.file),
      ContentType: request.contentType,
    },
    partSize,
    queueSize: 4,
    leavePartsOnError: false,
  });
  const abort = () => void upload.abort();
  request.signal.addEventListener('abort', abort, { once: true });
  upload.on('httpUploadProgress', (progress) => request.onProgress(progress.loaded ?? 0));
  try {
    await upload.done();
  } finally {
    request.signal.removeEventListener('abort', abort);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted() {
      clearTimeout(timer);
      reject(signal.reason);
    }
    signal.addEventListener('abort', aborted, { once: true });
  });
}
