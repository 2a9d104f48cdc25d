import {
  GSLB_WHIP_PATH,
  nodeMediaRoutes,
  nodeStreamRoutes,
  streamRoutes,
  TOTAL_COUNT_HEADER,
} from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute, JsonText } from '../../lib/route.js';
import type { OutputsService } from './outputs.service.js';
import type { StreamsService } from './streams.service.js';

export function registerStreamRoutes(app: FastifyInstance, streams: StreamsService, outputs: OutputsService): void {
  addRoute(app, streamRoutes.list, async ({ auth, query, reply }) => {
    const { json, total } = await streams.list(auth, query.account, query.offset, query.limit);
    reply.header(TOTAL_COUNT_HEADER, String(total));
    return new JsonText(json);
  });
  addRoute(app, streamRoutes.create, ({ auth, body }) => streams.create(auth, body));
  addRoute(app, streamRoutes.get, ({ auth, params }) => streams.get(auth, params.id));
  addRoute(app, streamRoutes.update, ({ auth, params, body }) => streams.update(auth, params.id, body));
  addRoute(app, streamRoutes.delete, ({ auth, params }) => streams.delete(auth, params.id));
  addRoute(app, streamRoutes.createPreview, ({ auth, params }) => streams.preview(auth, params.id));
  addRoute(app, streamRoutes.rotateAccessToken, ({ auth, params, body }) =>
    streams.rotateAccessToken(auth, params.id, body),
  );

  addRoute(app, streamRoutes.createOutput, ({ auth, body }) => outputs.create(auth, body));
  addRoute(app, streamRoutes.listOutputs, async ({ auth, query, reply }) => {
    const { items, total } = await outputs.list(auth, query.streamId, query.offset, query.limit);
    reply.header(TOTAL_COUNT_HEADER, String(total));
    return items;
  });
  addRoute(app, streamRoutes.rotateOutputAccessToken, ({ auth, params, body }) =>
    outputs.rotateAccessToken(auth, params.id, body),
  );
  addRoute(app, streamRoutes.clearOutputSessions, ({ auth, params }) => outputs.clearSessions(auth, params.id));
  addRoute(app, streamRoutes.updateOutput, ({ auth, params, body }) => outputs.update(auth, params.id, body));
  addRoute(app, streamRoutes.deleteOutput, ({ auth, params }) => outputs.delete(auth, params.id));

  addRoute(app, streamRoutes.location, async ({ query, request }) => streams.location(query.ipAddress ?? request.ip));
  addRoute(app, streamRoutes.streamInfo, ({ auth, params }) => streams.tracks(auth, params.streamId, params.type));
  addRoute(app, streamRoutes.createIngress, ({ auth, body }) => streams.provisionIngress(auth, body.streamId));
  addRoute(app, streamRoutes.getIngress, ({ auth, params }) => streams.ingress(auth, params.streamId));

  addRoute(app, nodeStreamRoutes.inputs, ({ request }) => streams.ofNode(request.node));
  addRoute(app, nodeStreamRoutes.claimIngress, ({ request, body }) => streams.claimIngress(request.node, body.name));
  // WHIP at a stream's GSLB URL: the offer goes unread (the node's WHIP answers it after the redirect).
  app.register(async (whip) => {
    whip.addContentTypeParser('application/sdp', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    whip.post<{ Params: { name: string } }>(GSLB_WHIP_PATH, { schema: { hide: true } }, async (request, reply) =>
      reply.redirect(await streams.gslbWhipTarget(request.params.name, request.ip), 307),
    );
  });
  addRoute(app, nodeMediaRoutes.ports, ({ request, body }) => streams.setMediaPorts(request.node, body.ports));
}
