import { nodeGroupRoutes } from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { ADMIN_OUTBOUND_RATE_LIMIT } from '../../lib/outbound.js';
import { addRoute } from '../../lib/route.js';
import type { NodeGroupsService } from './node-groups.service.js';

export function registerNodeGroupRoutes(app: FastifyInstance, groups: NodeGroupsService): void {
  const r = nodeGroupRoutes;
  addRoute(app, r.list, ({ auth }) => groups.list(auth));
  addRoute(app, r.create, ({ auth, body }) => groups.create(auth, body));
  addRoute(app, r.persistentNodes, () => groups.persistentNodeCandidates());
  addRoute(app, r.get, ({ auth, params }) => groups.get(auth, params.id));
  addRoute(app, r.update, ({ auth, params, body }) => groups.update(auth, params.id, body));
  addRoute(app, r.delete, ({ auth, params }) => groups.delete(auth, params.id));
  addRoute(app, r.addRule, ({ auth, params, body }) => groups.addRule(auth, params.id, body));
  addRoute(app, r.updateRule, ({ auth, params, body }) => groups.updateRule(auth, params.id, params.ruleId, body));
  addRoute(app, r.deleteRule, ({ auth, params }) => groups.deleteRule(auth, params.id, params.ruleId));
  // A change of the group's nodes calls its callback URI; allocating calls the provider.
  const outbound = { rateLimit: ADMIN_OUTBOUND_RATE_LIMIT };
  addRoute(app, r.attachNode, ({ auth, params }) => groups.attachNode(auth, params.id, params.nodeId), outbound);
  addRoute(app, r.detachNode, ({ auth, params }) => groups.detachNode(auth, params.id, params.nodeId), outbound);
  addRoute(app, r.scalingEvents, ({ auth, params, query }) => groups.scalingEvents(auth, params.id, query.limit));
  addRoute(app, r.allocate, ({ auth, params }) => groups.allocate(auth, params.id), outbound);
}
