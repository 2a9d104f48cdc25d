import { describe, expect, it } from 'vitest';
import { RateWindow } from './rate-window.js';

describe('RateWindow', () => {
  it('allows a key its uses per window, then refuses it until the next window', () => {
    const limit = new RateWindow({ perKey: 2, windowMs: 60_000, maxKeys: 10 });
    expect([limit.take('a', 0), limit.take('a', 1), limit.take('a', 2)]).toEqual([true, true, false]);
    expect(limit.take('b', 3)).toBe(true);
    expect(limit.retryAfterSeconds(30_000)).toBe(30);
    expect(limit.take('a', 60_000)).toBe(true);
  });

  it('refuses a new key once it holds maxKeys in one window', () => {
    const limit = new RateWindow({ perKey: 5, windowMs: 1000, maxKeys: 2 });
    expect([limit.take('a', 0), limit.take('b', 0), limit.take('c', 0), limit.take('a', 0)]).toEqual([
      true,
      true,
      false,
      true,
    ]);
    expect(limit.take('c', 1000)).toBe(true);
  });
});
