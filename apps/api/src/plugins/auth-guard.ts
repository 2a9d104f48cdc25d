import type { FastifyInstance } from 'fastify';
import { forbidden, unauthorized } from '../lib/errors.js';
import type { AuthService } from '../modules/auth/auth.service.js';

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]+)$/;

/** Resolves the bearer token on routes whose contract says 'user' or 'admin'. */
export function registerAuthGuard(app: FastifyInstance, auth: AuthService): void {
  app.decorateRequest('auth', null as never);
  app.addHook('onRequest', async (request) => {
    const level = request.routeOptions.config.auth;
    if (level !== 'user' && level !== 'admin') return;
    const header = request.headers.authorization;
    const token = header ? BEARER.exec(header)?.[1] : undefined;
    if (!token) throw unauthorized();
    const caller = await auth.authenticate(token);
    if (!caller) throw unauthorized('Invalid or expired token');
    if (level === 'admin' && caller.role !== 'ADMIN') throw forbidden('Administrators only');
    request.auth = caller;
  });
}
