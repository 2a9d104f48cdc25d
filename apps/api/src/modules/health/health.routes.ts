import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../db/database.js';

export function registerHealthRoutes(app: FastifyInstance, database: DatabaseHandle): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await sql`select 1`.execute(database.db);
      return { status: 'ready', database: database.engine };
    } catch {
      return reply.code(503).send({ status: 'unavailable', database: database.engine });
    }
  });
}
