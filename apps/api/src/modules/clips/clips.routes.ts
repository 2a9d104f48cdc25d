import { clipRoutes, nodeClipRoutes } from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { addFileRoute, addRoute } from '../../lib/route.js';
import type { ClipsService } from './clips.service.js';

export function registerClipRoutes(app: FastifyInstance, clips: ClipsService): void {
  addRoute(app, clipRoutes.create, ({ auth, body }) => clips.create(auth, body));
  addRoute(app, clipRoutes.list, ({ auth, query }) => clips.list(auth, query.streamId));
  addRoute(app, clipRoutes.storageUse, ({ auth }) => clips.storageUse(auth));
  addRoute(app, clipRoutes.get, ({ auth, params }) => clips.get(auth, params.id));
  addRoute(app, clipRoutes.playback, ({ auth, params }) => clips.playback(auth, params.id));
  addFileRoute(app, clipRoutes.file, ({ params, query, request }) =>
    clips.file(params.id, query.token, request.headers.range),
  );
  addFileRoute(app, clipRoutes.storyboard, ({ params, query }) =>
    clips.storyboard(params.id, params.file, query.token),
  );
  addRoute(app, clipRoutes.delete, ({ auth, params }) => clips.delete(auth, params.id));
  addRoute(app, nodeClipRoutes.clips, ({ node }) => clips.ofNode(node));
}
