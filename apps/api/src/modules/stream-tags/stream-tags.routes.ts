import { streamTagRoutes } from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../lib/route.js';
import type { StreamTagsService } from './stream-tags.service.js';

export function registerStreamTagRoutes(app: FastifyInstance, tags: StreamTagsService): void {
  addRoute(app, streamTagRoutes.list, ({ auth, params }) => tags.list(auth, params.id));
  addRoute(app, streamTagRoutes.add, ({ auth, params, body }) => tags.add(auth, params.id, body.tag));
  addRoute(app, streamTagRoutes.remove, ({ auth, params }) => tags.remove(auth, params.id, params.tag));
  addRoute(app, streamTagRoutes.streams, ({ auth, params, query }) => tags.streamsWith(auth, params.tag, query));
}
