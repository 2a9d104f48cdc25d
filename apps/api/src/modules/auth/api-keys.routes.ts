import { apiKeyRoutes } from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../lib/route.js';
import type { ApiKeysService } from './api-keys.service.js';

export function registerApiKeyRoutes(app: FastifyInstance, apiKeys: ApiKeysService): void {
  addRoute(app, apiKeyRoutes.list, ({ auth }) => apiKeys.list(auth));
  addRoute(app, apiKeyRoutes.create, ({ auth, body }) => apiKeys.create(auth, body));
  addRoute(app, apiKeyRoutes.revoke, ({ auth, params }) => apiKeys.revoke(auth, params.id));
}
