import type { Scope } from '../../db/unit-of-work.js';
import { tooManyRequests } from '../../lib/errors.js';

export interface LoginThrottle {
  windowSeconds: number;
  /** Failures per username from addresses it has not signed in from (and per username and address). */
  maxFailuresPerUsername: number;
  maxFailuresPerAddress: number;
  /** How long a successful sign-in makes its address trusted for the account. */
  trustedAddressSeconds: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottle = {
  windowSeconds: 15 * 60,
  maxFailuresPerUsername: 5,
  maxFailuresPerAddress: 20,
  trustedAddressSeconds: 30 * 24 * 3600,
};

const TOO_MANY_ATTEMPTS = 'Too many failed login attempts; try again later';

/** An attempt counted as a failure until it is known to have succeeded (`succeeded`). */
export interface PendingAttempt {
  ids: number[];
}

/**
 * Failed attempts at a secret (a password, a two-factor code), counted per key (`user:…`, `address:…`,
 * `two-factor:<account>`) over the throttle's window in `login_failures`. An attempt is counted as a
 * failure before its secret is checked — decided and counted in one transaction with its keys locked — so
 * concurrent attempts cannot all pass the limit; a success takes its count back.
 */
export class AttemptThrottle {
  constructor(
    private readonly uow: Scope<'loginThrottle'>,
    readonly limits: LoginThrottle,
  ) {}

  /** The start of the window at `now`. */
  since(now: Date): Date {
    return new Date(now.getTime() - this.limits.windowSeconds * 1000);
  }

  /**
   * Counts one attempt for every key of `keys`, or throws 429 (with Retry-After: when the oldest failure
   * leaves the window) when one of `limits` is reached.
   */
  begin(keys: string[], limits: Array<[key: string, max: number]>, now: Date): Promise<PendingAttempt> {
    const since = this.since(now);
    return this.uow.transaction(async ({ loginThrottle: locked }) => {
      await locked.lock(keys);
      for (const [key, limit] of limits) {
        const { count, oldest } = await locked.failuresSince(key, since);
        if (count >= limit && oldest) {
          const retryAfter = Math.max(1, Math.ceil((oldest.getTime() - since.getTime()) / 1000));
          throw tooManyRequests(TOO_MANY_ATTEMPTS, retryAfter);
        }
      }
      return { ids: await locked.record(keys, now) };
    });
  }

  /** The attempt did not fail after all (its secret was right, or checking it broke): its count is taken back. */
  forget(attempt: PendingAttempt): Promise<void> {
    return this.uow.loginThrottle.forget(attempt.ids);
  }

  /** The attempt failed: it stays counted; failures out of the window are dropped. */
  failed(now: Date): Promise<void> {
    return this.uow.loginThrottle.deleteBefore(this.since(now));
  }

  /** A success: the attempt's count and `clearKeys`' failures are forgotten. */
  async succeeded(attempt: PendingAttempt, clearKeys: string[]): Promise<void> {
    await this.forget(attempt);
    for (const key of clearKeys) await this.uow.loginThrottle.clear(key);
  }
}
