import { nodeSnapshotRoutes, snapshotRoutes } from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../lib/route.js';
import type { SnapshotsService } from './snapshots.service.js';

export function registerSnapshotRoutes(app: FastifyInstance, snapshots: SnapshotsService): void {
  addRoute(app, snapshotRoutes.get, ({ auth, params }) => snapshots.get(auth, params.streamId, params.direction));
  addRoute(app, snapshotRoutes.update, ({ auth, params, body }) =>
    snapshots.update(auth, params.streamId, params.direction, body),
  );
  addRoute(app, snapshotRoutes.delete, ({ auth, params }) => snapshots.delete(auth, params.streamId, params.direction));
  // The image changes at the snapshot interval: browsers may keep it but must ask again (no-cache).
  addRoute(
    app,
    snapshotRoutes.image,
    async ({ auth, params, reply }) => {
      const image = await snapshots.image(auth, params.streamId, params.direction);
      reply.type(image.contentType);
      return image.data;
    },
    { cacheControl: 'no-cache' },
  );
  addRoute(app, nodeSnapshotRoutes.settings, ({ node, params }) => snapshots.forNode(node, params.id));
}
