import { authRoutes } from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../lib/route.js';
import type { AuthService } from './auth.service.js';

/** Any login requests, failed or not, per address; failures alone are throttled tighter by the service. */
export const DEFAULT_LOGIN_FLOOD_LIMIT = { max: 60, timeWindow: '1 minute' };

export function registerAuthRoutes(
  app: FastifyInstance,
  auth: AuthService,
  floodLimit: { max: number; timeWindow: string } = DEFAULT_LOGIN_FLOOD_LIMIT,
): void {
  addRoute(app, authRoutes.login, ({ body, request }) => auth.login(body.username, body.password, request.ip), {
    rateLimit: floodLimit,
  });
  addRoute(app, authRoutes.logout, ({ auth: caller }) => auth.logout(caller));
  addRoute(app, authRoutes.stopImpersonation, ({ auth: caller }) => auth.stopImpersonation(caller));
}
