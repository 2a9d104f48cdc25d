import type { FastifyInstance } from 'fastify';
import { registerPeriodicJob } from '../../lib/periodic.js';
import { DEFAULT_NODE_SILENCE_MS } from '../nodes/index.js';

/**
 * The stuck-item rule as a periodic job of a stream job module (docs/decisions.md): its jobs whose node
 * was deleted or went silent move to Error, on the interval that assigns waiting streams.
 */
export function registerLostNodeExpiry(
  app: FastifyInstance,
  options: { nodeSilenceMs?: number | undefined; streamAssignIntervalMs?: number | undefined },
  noun: string,
  jobs: { expireLostNodes(silenceMs: number): Promise<number> },
): void {
  const silenceMs = options.nodeSilenceMs ?? DEFAULT_NODE_SILENCE_MS;
  registerPeriodicJob(app, {
    what: `expiring the ${noun}s of lost nodes`,
    intervalMs: options.streamAssignIntervalMs,
    run: () => jobs.expireLostNodes(silenceMs),
  });
}
