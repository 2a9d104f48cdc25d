import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../db/database.js';
import type { HealthRepository } from './health.repository.js';

/** Liveness (the process answers) and readiness (the database answers too), outside the API and its docs. */
export function registerHealthRoutes(
  app: FastifyInstance,
  health: HealthRepository,
  engine: DatabaseHandle['engine'],
): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await health.ping();
      return { status: 'ready', database: engine };
    } catch {
      return reply.code(503).send({ status: 'unavailable', database: engine });
    }
  });
}
