import { nodeStreamRoutes, playbackKeyRoutes } from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../lib/route.js';
import type { PlaybackKeysService } from './playback-keys.service.js';

export function registerPlaybackKeyRoutes(app: FastifyInstance, playbackKeys: PlaybackKeysService): void {
  addRoute(app, playbackKeyRoutes.list, ({ auth, query }) => playbackKeys.list(auth, query.account));
  addRoute(app, playbackKeyRoutes.create, ({ auth, body }) => playbackKeys.create(auth, body));
  addRoute(app, playbackKeyRoutes.revoke, ({ auth, params }) => playbackKeys.revoke(auth, params.id));
  addRoute(app, playbackKeyRoutes.revokedTokens, ({ auth, query }) => playbackKeys.revokedTokens(auth, query.account));
  addRoute(app, playbackKeyRoutes.revokeToken, ({ auth, body }) => playbackKeys.revokeToken(auth, body));
  addRoute(app, playbackKeyRoutes.inspect, ({ auth, body }) => playbackKeys.inspect(auth, body));
  addRoute(app, nodeStreamRoutes.playbackSigning, ({ request, params }) =>
    playbackKeys.signingFor(request.node, params.id),
  );
}
