import { AppError } from './errors.js';

/**
 * Who is waiting: `trusted` is a sign-in from an address the account signed in from before, served
 * before any `normal` work and still queued when the normal queue is full, so a flood of bogus sign-ins
 * neither delays nor refuses the owner's.
 */
export type HashingPriority = 'trusted' | 'normal';

export interface HashingLimits {
  /** Hashes computed at once (each scrypt at OWASP's cost takes 128 MiB and a core for a fraction of a second). */
  concurrency: number;
  /** Normal work waiting beyond that; more is refused with 503. */
  queue: number;
  /** Trusted work waiting; more is refused with 503. */
  trustedQueue: number;
}

export const DEFAULT_HASHING_LIMITS: HashingLimits = { concurrency: 2, queue: 8, trustedQueue: 32 };

export const serverBusy = () =>
  new AppError(503, 'BUSY', 'Too many sign-ins at once; try again in a moment', { 'retry-after': '1' });

/** Bounds the password hashing the server does at once, with a short queue and a lane for trusted callers. */
export class HashingGate {
  private running = 0;
  private readonly waiting: Record<HashingPriority, Array<() => void>> = { trusted: [], normal: [] };

  constructor(private readonly limits: HashingLimits = DEFAULT_HASHING_LIMITS) {}

  /** Runs `work` when a slot is free; throws a 503 AppError at once when its queue is full. */
  async run<T>(work: () => Promise<T>, priority: HashingPriority = 'normal'): Promise<T> {
    if (this.running >= this.limits.concurrency) {
      const limit = priority === 'trusted' ? this.limits.trustedQueue : this.limits.queue;
      if (this.waiting[priority].length >= limit) throw serverBusy();
      await new Promise<void>((resolve) => this.waiting[priority].push(resolve));
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      this.next();
    }
  }

  /** Hands the finished slot to the next waiter (trusted first), or frees it. */
  private next(): void {
    const wake = this.waiting.trusted.shift() ?? this.waiting.normal.shift();
    if (wake) wake();
    else this.running--;
  }
}
