import { twoFactorRoutes } from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../lib/route.js';
import type { AuthService } from './auth.service.js';
import type { TwoFactorService } from './two-factor.service.js';

export function registerTwoFactorRoutes(
  app: FastifyInstance,
  auth: AuthService,
  twoFactor: TwoFactorService,
  floodLimit: { max: number; timeWindow: string },
): void {
  addRoute(
    app,
    twoFactorRoutes.login,
    async ({ body, request }) => ({ token: await auth.loginWithCode(body.ticket, body.code, request.ip) }),
    { rateLimit: floodLimit },
  );
  addRoute(app, twoFactorRoutes.status, ({ auth: caller, params }) => twoFactor.status(caller, params.id));
  addRoute(app, twoFactorRoutes.start, ({ auth: caller, body, request }) =>
    twoFactor.start(caller, body.password, request.ip),
  );
  addRoute(app, twoFactorRoutes.confirm, ({ auth: caller, body, request }) =>
    twoFactor.confirm(caller, body.code, request.ip),
  );
  addRoute(app, twoFactorRoutes.disable, ({ auth: caller, body, request }) =>
    twoFactor.disable(caller, body.code, request.ip),
  );
  addRoute(app, twoFactorRoutes.reset, ({ auth: caller, params }) => twoFactor.reset(caller, params.id));
  addRoute(app, twoFactorRoutes.settings, () => twoFactor.settings());
  addRoute(app, twoFactorRoutes.updateSettings, ({ auth: caller, body }) => twoFactor.updateSettings(caller, body));
}
