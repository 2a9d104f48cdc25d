import { StorageSaveQuery, storageRoutes } from '@streamcloud/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OUTBOUND_RATE_LIMIT } from '../../lib/outbound.js';
import { addRoute } from '../../lib/route.js';
import type { StoragesService } from './storages.service.js';

/** Saving runs the connection check by default, and the check calls the storage's endpoint: both are limited. */
export function registerStorageRoutes(app: FastifyInstance, storages: StoragesService): void {
  const outbound = { rateLimit: OUTBOUND_RATE_LIMIT };
  // A save with ?check=false does not connect out, so it is not counted.
  const outboundUnlessUnchecked = {
    rateLimit: {
      ...OUTBOUND_RATE_LIMIT,
      allowList: (request: FastifyRequest) => StorageSaveQuery.safeParse(request.query).data?.check === false,
    },
  };
  addRoute(app, storageRoutes.list, ({ auth, query }) => storages.list(auth, query.ownerId));
  addRoute(
    app,
    storageRoutes.create,
    ({ auth, query, body }) => storages.create(auth, body, { check: query.check }),
    outboundUnlessUnchecked,
  );
  addRoute(app, storageRoutes.get, ({ auth, params }) => storages.get(auth, params.id));
  addRoute(
    app,
    storageRoutes.update,
    ({ auth, params, query, body }) => storages.update(auth, params.id, body, { check: query.check }),
    outboundUnlessUnchecked,
  );
  addRoute(app, storageRoutes.delete, ({ auth, params }) => storages.delete(auth, params.id));
  addRoute(app, storageRoutes.check, ({ auth, params }) => storages.check(auth, params.id), outbound);
}
