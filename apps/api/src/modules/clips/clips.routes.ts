import { clipRoutes, nodeClipRoutes } from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../lib/route.js';
import type { ClipsService } from './clips.service.js';

export function registerClipRoutes(app: FastifyInstance, clips: ClipsService): void {
  addRoute(app, clipRoutes.create, ({ auth, body }) => clips.create(auth, body));
  addRoute(app, clipRoutes.list, ({ auth, query }) => clips.list(auth, query.streamId));
  addRoute(app, clipRoutes.get, ({ auth, params }) => clips.get(auth, params.id));
  addRoute(app, clipRoutes.playback, ({ auth, params }) => clips.playback(auth, params.id));
  addRoute(
    app,
    clipRoutes.file,
    async ({ params, query, request, reply }) => {
      const file = await clips.file(params.id, query.token, request.headers.range);
      reply.code(file.status).headers(file.headers);
      return file.body;
    },
    // The link is a capability: the browser may keep the bytes, no shared cache may.
    { cacheControl: 'private, max-age=3600' },
  );
  addRoute(app, clipRoutes.delete, ({ auth, params }) => clips.delete(auth, params.id));
  addRoute(app, nodeClipRoutes.clips, ({ node }) => clips.ofNode(node));
}
