import { nodeRecordingRoutes, recordingRoutes, TOTAL_COUNT_HEADER } from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { addFileRoute, addRoute } from '../../lib/route.js';
import type { RecordingsService } from './recordings.service.js';

export function registerRecordingRoutes(app: FastifyInstance, recordings: RecordingsService): void {
  addRoute(app, recordingRoutes.create, ({ auth, body }) => recordings.create(auth, body));
  addRoute(app, recordingRoutes.list, async ({ auth, query, reply }) => {
    const { items, total } = await recordings.list(auth, query.profile === 'ACTIVE', query.offset, query.limit);
    reply.header(TOTAL_COUNT_HEADER, String(total));
    return items;
  });
  addRoute(app, recordingRoutes.listByStream, ({ auth, params, query }) =>
    recordings.listByStream(auth, params.streamId, query.profile === 'ACTIVE'),
  );
  addRoute(app, recordingRoutes.get, ({ auth, params }) => recordings.get(auth, params.id));
  addRoute(app, recordingRoutes.update, ({ auth, params, body }) => recordings.update(auth, params.id, body));
  addRoute(app, recordingRoutes.stop, ({ auth, params }) => recordings.stop(auth, params.id));
  addRoute(app, recordingRoutes.playback, ({ auth, params }) => recordings.playback(auth, params.id));
  addFileRoute(app, recordingRoutes.file, ({ params, query, request }) =>
    recordings.file(params.id, query.token, request.headers.range),
  );
  addRoute(app, recordingRoutes.delete, ({ auth, params }) => recordings.delete(auth, params.id));
  addRoute(app, nodeRecordingRoutes.recordings, ({ node }) => recordings.ofNode(node));
}
