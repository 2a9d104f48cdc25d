import { nodeTranscodeRoutes, TRANSCODE_BODY_LIMIT, transcodeRoutes } from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../lib/route.js';
import type { TranscodeService } from './transcode.service.js';

export function registerTranscodeRoutes(app: FastifyInstance, transcode: TranscodeService): void {
  addRoute(app, transcodeRoutes.get, ({ auth, params }) => transcode.get(auth, params.id));
  addRoute(app, transcodeRoutes.update, ({ auth, params, body }) => transcode.update(auth, params.id, body), {
    bodyLimit: TRANSCODE_BODY_LIMIT,
  });
  addRoute(app, nodeTranscodeRoutes.get, ({ node, params }) => transcode.forNode(node, params.id));
}
