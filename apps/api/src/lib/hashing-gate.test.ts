import { describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { HashingGate } from './hashing-gate.js';

/** Work that finishes when the test says so. */
function deferred() {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { work: () => done, finish };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('HashingGate', () => {
  it('runs at most `concurrency` at once and refuses with 503 when the queue is full', async () => {
    const gate = new HashingGate({ concurrency: 2, queue: 1, trustedQueue: 1 });
    const jobs = [deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = jobs.map((job, index) =>
      gate.run(async () => {
        started.push(index);
        await job.work();
      }),
    );
    await settle();
    expect(started).toEqual([0, 1]);
    const refused = await gate.run(async () => 'never').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ statusCode: 503, headers: { 'retry-after': '1' } });
    jobs[0]?.finish();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    for (const job of jobs) job.finish();
    await Promise.all(runs);
    await expect(gate.run(async () => 'free again')).resolves.toBe('free again');
  });

  it('serves trusted work first, and queues it even when the normal queue is full', async () => {
    const gate = new HashingGate({ concurrency: 1, queue: 1, trustedQueue: 1 });
    const first = deferred();
    const order: string[] = [];
    const busy = gate.run(first.work);
    const normal = gate.run(async () => void order.push('normal'));
    await expect(gate.run(async () => 'x')).rejects.toMatchObject({ statusCode: 503 });
    const trusted = gate.run(async () => void order.push('trusted'), 'trusted');
    first.finish();
    await Promise.all([busy, normal, trusted]);
    expect(order).toEqual(['trusted', 'normal']);
  });

  it('frees its slot when the work fails', async () => {
    const gate = new HashingGate({ concurrency: 1, queue: 0, trustedQueue: 0 });
    await expect(gate.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(gate.run(async () => 'ok')).resolves.toBe('ok');
  });
});
