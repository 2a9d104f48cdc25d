import { vodRoutes } from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../lib/route.js';
import type { VodsService } from './vods.service.js';

export function registerVodRoutes(app: FastifyInstance, vods: VodsService): void {
  addRoute(app, vodRoutes.list, ({ auth, query }) => vods.list(auth, query.streamId));
  addRoute(app, vodRoutes.get, ({ auth, params }) => vods.get(auth, params.id));
}
