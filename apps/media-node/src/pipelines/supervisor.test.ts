import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type SupervisedRun, Supervisor } from './supervisor.js';

/** A run that ends when the test says so. */
function controlledRun() {
  let end!: (failure: string | null) => void;
  const ended = new Promise<string | null>((resolve) => {
    end = resolve;
  });
  const run: SupervisedRun = { ended, stop: async () => end(null) };
  return { run, end };
}

describe('Supervisor', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('retries with backoff 1, 2, 4 … 30 s and gives up once runs have failed for `failingForMs`', async () => {
    const waits: [number, number][] = [];
    let gaveUp: string | null = null;
    const supervisor = new Supervisor({
      run: () => ({ ended: Promise.resolve('connection refused'), stop: async () => undefined }),
      backoffMs: [1000, 2000, 4000, 8000, 16000, 30_000],
      failingForMs: 600_000,
      onEnded: (_failure, wait, attempt) => waits.push([wait, attempt]),
      onGiveUp: (failure) => {
        gaveUp = failure;
      },
    });
    supervisor.start();
    await vi.advanceTimersByTimeAsync(599_000);
    expect(gaveUp).toBeNull();
    expect(waits.slice(0, 7)).toEqual([
      [1000, 1],
      [2000, 2],
      [4000, 3],
      [8000, 4],
      [16000, 5],
      [30_000, 6],
      [30_000, 7],
    ]);
    await vi.advanceTimersByTimeAsync(31_000);
    expect(gaveUp).toBe('connection refused');
    const attempts = waits.length;
    await vi.advanceTimersByTimeAsync(120_000);
    expect(waits.length).toBe(attempts);
  });

  it('starts the backoff anew after a healthy run, and gives up at once on a fatal failure', async () => {
    const runs: ReturnType<typeof controlledRun>[] = [];
    const waits: number[] = [];
    let gaveUp: string | null = null;
    const supervisor = new Supervisor({
      run: () => {
        const next = controlledRun();
        runs.push(next);
        return next.run;
      },
      backoffMs: [1000, 2000, 4000],
      failingForMs: 600_000,
      fatal: (failure) => failure.startsWith('refused:'),
      onEnded: (_failure, wait) => waits.push(wait),
      onGiveUp: (failure) => {
        gaveUp = failure;
      },
    });
    supervisor.start();
    await vi.advanceTimersByTimeAsync(0);
    runs[0]?.end('reset');
    await vi.advanceTimersByTimeAsync(1000);
    runs[1]?.end('reset');
    await vi.advanceTimersByTimeAsync(2000);
    supervisor.healthy();
    runs[2]?.end('reset');
    await vi.advanceTimersByTimeAsync(1000);
    expect(waits).toEqual([1000, 2000, 1000]);
    runs[3]?.end('refused: bad key');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(gaveUp).toBe('refused: bad key');
    expect(runs).toHaveLength(4);
  });
});
