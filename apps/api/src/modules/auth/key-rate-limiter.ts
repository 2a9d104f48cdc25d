/** What one request's take of a key's allowance answered, for the `RateLimit-*` headers. */
export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends and the allowance is whole again. */
  resetSeconds: number;
}

/** Requests per API key and minute unless configured (KEY_RATE_LIMIT). */
export const DEFAULT_KEY_RATE_LIMIT = 600;

/** Enough for every key in use on a busy server; past it, windows already over are dropped. */
const MAX_TRACKED_KEYS = 10_000;

/**
 * Requests per API key and fixed window, in this process's memory (as @fastify/rate-limit's login limit):
 * with several API processes a key gets the limit from each (docs/decisions.md, "API keys").
 */
export class KeyRateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly limit: number,
    private readonly windowMs = 60_000,
  ) {}

  take(keyId: string, now: Date): RateLimitState {
    const at = now.getTime();
    let window = this.windows.get(keyId);
    if (!window || at >= window.start + this.windowMs) {
      if (!window && this.windows.size >= MAX_TRACKED_KEYS) this.dropEnded(at);
      window = { start: at, count: 0 };
      this.windows.set(keyId, window);
    }
    const allowed = window.count < this.limit;
    if (allowed) window.count++;
    return {
      allowed,
      limit: this.limit,
      remaining: this.limit - window.count,
      resetSeconds: Math.max(1, Math.ceil((window.start + this.windowMs - at) / 1000)),
    };
  }

  private dropEnded(at: number): void {
    for (const [key, window] of this.windows) {
      if (at >= window.start + this.windowMs) this.windows.delete(key);
    }
  }
}
