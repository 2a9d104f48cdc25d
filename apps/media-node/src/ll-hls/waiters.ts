/** Requests held at once per packager (blocking playlist reloads, hinted parts); beyond, a new one times out at once. */
const MAX_WAITERS = 500;

type Outcome = 'ready' | 'timeout' | 'ended' | 'too-far';

interface Waiter {
  ready: () => boolean;
  settle: (outcome: Outcome) => void;
}

/** Requests waiting for a condition on the packager: checked when it changes, bounded, each with its timeout. */
export class Waiters {
  private readonly waiting = new Set<Waiter>();

  /** Resolves 'ready' once `ready()` holds (checked on `check`), 'timeout' after `timeoutMs` or on `signal`. */
  wait(ready: () => boolean, timeoutMs: number, signal?: AbortSignal): Promise<Outcome> {
    if (this.waiting.size >= MAX_WAITERS || signal?.aborted) return Promise.resolve('timeout');
    return new Promise((resolve) => {
      const onAbort = () => waiter.settle('timeout');
      const timer = setTimeout(onAbort, timeoutMs);
      const waiter: Waiter = {
        ready,
        settle: (outcome) => {
          if (!this.waiting.delete(waiter)) return;
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(outcome);
        },
      };
      this.waiting.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Something was added: the requests it satisfies are answered. */
  check(): void {
    for (const waiter of [...this.waiting]) if (waiter.ready()) waiter.settle('ready');
  }

  /** Every request is answered with `outcome` (the push ended). */
  settle(outcome: Outcome): void {
    for (const waiter of [...this.waiting]) waiter.settle(outcome);
  }
}
