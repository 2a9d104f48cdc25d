import { randomUUID } from 'node:crypto';
import {
  DeleteObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { StorageCheck, StorageCheckResult } from '@streamcloud/contract';
import type { GuardedAgents } from '@streamcloud/net-guard';
import {
  createS3Client,
  DEFAULT_CHECK_TIMEOUT_MS,
  describeFailure,
  hostOf,
  keyPrefix,
  type S3Target,
  type SdkError,
} from '@streamcloud/s3';

import { DEFAULT_OUTBOUND } from '../../lib/outbound.js';

export type { S3Target } from '@streamcloud/s3';

/**
 * Checks a storage for real: the bucket answers HeadBucket, a small marker can be written under the
 * storage's path, and removed again. Every outcome is an answer, never a thrown error.
 */
export class S3ConnectionChecker {
  constructor(
    private readonly timeoutMs = DEFAULT_CHECK_TIMEOUT_MS,
    /** The guarded agents every S3 call goes through (lib/outbound.ts: users' destinations). */
    private readonly agents: GuardedAgents = DEFAULT_OUTBOUND.users.agents,
  ) {}

  async check(target: S3Target): Promise<StorageCheckResult> {
    const key = `${keyPrefix(target.path)}.streamcloud-check-${randomUUID()}`;
    const client = createS3Client(target, { timeoutMs: this.timeoutMs, agents: this.agents });
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
