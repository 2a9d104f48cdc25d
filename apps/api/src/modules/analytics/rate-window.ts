/**
 * Counts uses per key in fixed windows (e.g. per minute) and says whether one more is allowed. Bounded: the map
 * is emptied at each new window, and holds at most `maxKeys` keys within one; a new key past that is refused
 * (a flood of distinct keys is itself the abuse this limits).
 */
export class RateWindow {
  private windowStart = 0;
  private readonly counts = new Map<string, number>();

  constructor(private readonly limits: { perKey: number; windowMs: number; maxKeys: number }) {}

  /** Takes one use of `key` at `nowMs`: false when the key's window is spent or the map is full. */
  take(key: string, nowMs: number): boolean {
    if (nowMs - this.windowStart >= this.limits.windowMs || nowMs < this.windowStart) {
      this.windowStart = nowMs - (nowMs % this.limits.windowMs);
      this.counts.clear();
    }
    const used = this.counts.get(key);
    if (used === undefined && this.counts.size >= this.limits.maxKeys) return false;
    if ((used ?? 0) >= this.limits.perKey) return false;
    this.counts.set(key, (used ?? 0) + 1);
    return true;
  }

  /** Seconds until the current window ends (a 429's Retry-After). */
  retryAfterSeconds(nowMs: number): number {
    return Math.max(1, Math.ceil((this.windowStart + this.limits.windowMs - nowMs) / 1000));
  }
}
