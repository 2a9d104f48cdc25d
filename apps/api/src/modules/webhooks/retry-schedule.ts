import { WEBHOOK_RETRY_DELAYS_SECONDS } from '@streamcloud/contract';

export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = WEBHOOK_RETRY_DELAYS_SECONDS.map((seconds) => seconds * 1000);

/** Each delay is spread by up to this fraction either way, so receivers that fail together are not retried together. */
export const RETRY_JITTER = 0.2;

/**
 * When to try again after the failure of retry step `step` (0 after the first attempt), or null when the
 * schedule is over and the delivery gives up. `random` answers in [0, 1).
 */
export function retryAt(
  step: number,
  failedAt: Date,
  delaysMs: readonly number[] = DEFAULT_RETRY_DELAYS_MS,
  random: () => number = Math.random,
): Date | null {
  const delay = delaysMs[step];
  if (delay === undefined) return null;
  const spread = delay * RETRY_JITTER * (2 * random() - 1);
  return new Date(failedAt.getTime() + Math.round(delay + spread));
}
