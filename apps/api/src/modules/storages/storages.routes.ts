import { storageRoutes } from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../lib/route.js';
import type { StoragesService } from './storages.service.js';

/** Connection checks call out to the storage's endpoint: a few a minute per client address is plenty. */
export const CHECK_RATE_LIMIT = { max: 30, timeWindow: '1 minute' };

export function registerStorageRoutes(app: FastifyInstance, storages: StoragesService): void {
  addRoute(app, storageRoutes.list, ({ auth, query }) => storages.list(auth, query.ownerId));
  addRoute(app, storageRoutes.create, ({ auth, query, body }) => storages.create(auth, body, { check: query.check }));
  addRoute(app, storageRoutes.get, ({ auth, params }) => storages.get(auth, params.id));
  addRoute(app, storageRoutes.update, ({ auth, params, query, body }) =>
    storages.update(auth, params.id, body, { check: query.check }),
  );
  addRoute(app, storageRoutes.delete, ({ auth, params }) => storages.delete(auth, params.id));
  addRoute(app, storageRoutes.check, ({ auth, params }) => storages.check(auth, params.id), {
    rateLimit: CHECK_RATE_LIMIT,
  });
}
