import { nodeRelayRoutes, relayRoutes } from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../lib/route.js';
import type { RelaysService } from './relays.service.js';

export function registerRelayRoutes(app: FastifyInstance, relays: RelaysService): void {
  addRoute(app, relayRoutes.create, ({ auth, body }) => relays.create(auth, body));
  addRoute(app, relayRoutes.listByStream, ({ auth, params, query }) =>
    relays.listByStream(auth, params.streamId, query.profile === 'ACTIVE'),
  );
  addRoute(app, relayRoutes.get, ({ auth, params }) => relays.get(auth, params.id));
  addRoute(app, relayRoutes.update, ({ auth, params, body }) => relays.update(auth, params.id, body));
  addRoute(app, relayRoutes.stop, ({ auth, params }) => relays.stop(auth, params.id));
  addRoute(app, relayRoutes.delete, ({ auth, params }) => relays.delete(auth, params.id));
  addRoute(app, nodeRelayRoutes.relays, ({ node }) => relays.ofNode(node));
}
