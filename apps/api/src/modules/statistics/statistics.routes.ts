import { timingSafeEqual } from 'node:crypto';
import { METRICS_SCRAPE_PATH, statisticsRoutes } from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { AppError, unauthorized } from '../../lib/errors.js';
import { addRoute } from '../../lib/route.js';
import type { StatisticsService } from './statistics.service.js';

const BEARER = /^Bearer (\S+)$/;

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

export function registerStatisticsRoutes(
  app: FastifyInstance,
  statistics: StatisticsService,
  scrapeToken: string | undefined,
): void {
  // Usage reports (megabytes at times) come as JSON text rendered by the database: addRoute sends it as is.
  addRoute(app, statisticsRoutes.usage, ({ auth, params, query }) => statistics.usage(auth, params, query));
  addRoute(app, statisticsRoutes.streamUsage, ({ auth, params, query }) => statistics.streamUsage(auth, params, query));
  addRoute(app, statisticsRoutes.accountMetrics, ({ auth, params, query }) =>
    statistics.accountMetrics(auth, params, query),
  );

  // Prometheus scrapes the control plane here with `Authorization: Bearer <METRICS_TOKEN>`; without a
  // configured token the path does not exist.
  app.get(METRICS_SCRAPE_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (!scrapeToken) {
      throw new AppError(404, 'NOT_FOUND', `Route GET ${METRICS_SCRAPE_PATH} not found`);
    }
    const given = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (!given || !sameSecret(given, scrapeToken)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw unauthorized('The metrics scrape token is required');
    }
    reply.header('cache-control', 'no-store');
    reply.type('text/plain; version=0.0.4; charset=utf-8');
    return statistics.exposition();
  });
}
