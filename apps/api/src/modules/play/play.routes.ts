import { playRoutes } from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../lib/route.js';
import type { PlayService } from './play.service.js';

export function registerPlayRoutes(app: FastifyInstance, play: PlayService): void {
  // Kept by no cache (the API's no-store): the player polls it for the stream's status while it does not play.
  addRoute(app, playRoutes.info, ({ params }) => play.info(params.id));
  addRoute(
    app,
    playRoutes.poster,
    async ({ params, reply }) => {
      const image = await play.poster(params.id);
      reply.type(image.contentType);
      return image.data;
    },
    { cacheControl: 'no-cache' },
  );
}
