import { FALLBACK_BODY_LIMIT, fallbackRoutes, nodeFallbackRoutes } from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../lib/route.js';
import type { FallbacksService } from './fallbacks.service.js';

export function registerFallbackRoutes(app: FastifyInstance, fallbacks: FallbacksService): void {
  addRoute(app, fallbackRoutes.create, ({ auth, body }) => fallbacks.create(auth, body), {
    bodyLimit: FALLBACK_BODY_LIMIT,
  });
  addRoute(app, fallbackRoutes.update, ({ auth, params, body }) => fallbacks.update(auth, params.id, body), {
    bodyLimit: FALLBACK_BODY_LIMIT,
  });
  addRoute(app, fallbackRoutes.list, ({ auth, query }) => fallbacks.list(auth, query.streamId));
  addRoute(app, fallbackRoutes.delete, ({ auth, params }) => fallbacks.delete(auth, params.id));
  addRoute(app, nodeFallbackRoutes.list, ({ node, params }) => fallbacks.forNode(node, params.id));
}
