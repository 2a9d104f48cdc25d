import { BUCKET_RATIO, type BucketCount } from './analytics.repository.js';

/** A bucket's value: its geometric middle (within half a bucket, ±5 %, of any value it holds). */
const bucketValue = (bucket: number) => BUCKET_RATIO ** (bucket + 0.5) - 1;

/**
 * The median and 95th percentile of one per-session figure from its bucket counts (several sources' counts of
 * the same bucket add up): the value of the bucket holding the rank `percentile_cont` would interpolate at.
 */
export function percentilesOf(counts: Array<Pick<BucketCount, 'bucket' | 'sessions'>>): {
  median: number | null;
  p95: number | null;
} {
  const byBucket = new Map<number, number>();
  for (const { bucket, sessions } of counts) byBucket.set(bucket, (byBucket.get(bucket) ?? 0) + sessions);
  const sorted = [...byBucket.entries()].sort(([a], [b]) => a - b);
  const total = sorted.reduce((sum, [, sessions]) => sum + sessions, 0);
  if (total === 0) return { median: null, p95: null };
  const at = (fraction: number) => {
    const rank = Math.round(fraction * (total - 1));
    let seen = 0;
    for (const [bucket, sessions] of sorted) {
      seen += sessions;
      if (rank < seen) return bucketValue(bucket);
    }
    return bucketValue(sorted.at(-1)?.[0] ?? 0);
  };
  return { median: at(0.5), p95: at(0.95) };
}
