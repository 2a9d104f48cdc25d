import { NODE_REPORT_BODY_LIMIT, nodeReportRoutes, nodeRoutes } from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { ADMIN_OUTBOUND_RATE_LIMIT } from '../../lib/outbound.js';
import { addRoute } from '../../lib/route.js';
import type { NodeReportsService } from './node-reports.service.js';
import type { NodesService } from './nodes.service.js';

export function registerNodeRoutes(app: FastifyInstance, nodes: NodesService, reports: NodeReportsService): void {
  addRoute(app, nodeRoutes.list, () => nodes.list());
  addRoute(app, nodeRoutes.create, ({ auth, body }) => nodes.create(auth, body));
  addRoute(app, nodeRoutes.get, ({ params }) => nodes.get(params.id));
  addRoute(app, nodeRoutes.update, ({ auth, params, body }) => nodes.update(auth, params.id, body));
  addRoute(app, nodeRoutes.delete, ({ auth, params }) => nodes.delete(auth, params.id));
  // These two call the node's control API.
  const outbound = { rateLimit: ADMIN_OUTBOUND_RATE_LIMIT };
  addRoute(app, nodeRoutes.refresh, ({ auth, params, body }) => nodes.refresh(auth, params.id, body.mode), outbound);
  addRoute(app, nodeRoutes.metadata, ({ params }) => nodes.metadata(params.id), outbound);
  addRoute(app, nodeRoutes.drain, ({ params }) => nodes.drain(params.id));
  addRoute(app, nodeRoutes.startDrain, ({ auth, params }) => nodes.startDrain(auth, params.id));
  addRoute(app, nodeRoutes.stopDrain, ({ auth, params }) => nodes.stopDrain(auth, params.id));
  addRoute(app, nodeRoutes.reissueToken, ({ auth, params }) => nodes.reissueToken(auth, params.id));

  // The node-facing API: called by media nodes with their node token.
  addRoute(app, nodeReportRoutes.whoami, ({ node }) => nodes.whoami(node));
  addRoute(app, nodeReportRoutes.report, ({ node, body }) => reports.receive(node, body), {
    bodyLimit: NODE_REPORT_BODY_LIMIT,
  });
}
