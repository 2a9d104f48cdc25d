import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext, NodeIdentity } from '../lib/auth-context.js';
import { AppError, forbidden, unauthorized } from '../lib/errors.js';
import type { KeyedRequest } from '../modules/auth/api-keys.service.js';

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]+)$/;

/** Resolves the two kinds of bearer token: an account's (modules/auth) and a media node's (modules/nodes). */
export interface Authenticators {
  authenticate(token: string): Promise<AuthContext | null>;
  /** The caller of a session token this process checked before and still holds (no API keys): no promise. */
  cachedCaller(token: string): AuthContext | null;
  authenticateNode(token: string): Promise<NodeIdentity | null>;
  /** Refuses an API key's request its scope, the route or its rate limit does not allow (modules/auth). */
  admitApiKey(key: NonNullable<AuthContext['apiKey']>, request: KeyedRequest): Promise<void>;
}

/** The answer to an ADMIN the security settings require to enrol two-factor sign-in, on any other route. */
const twoFactorEnrolmentRequired = () =>
  new AppError(
    403,
    'TWO_FACTOR_REQUIRED',
    'Administrators must enable two-factor authentication: enable it in Account settings first',
  );

const bearerOf = (request: FastifyRequest) => {
  const header = request.headers.authorization;
  return header ? BEARER.exec(header)?.[1] : undefined;
};

/**
 * Resolves the bearer token on routes whose contract says 'user' or 'admin' (an account's JWT) or
 * 'node' (a media node's token). Neither kind of token is accepted where the other is expected. An account's
 * API key acts as its account within the key's scope.
 */
export function registerAuthGuard(app: FastifyInstance, authenticators: Authenticators): void {
  app.decorateRequest('auth', null as never);
  app.decorateRequest('node', null as never);

  /** Lets an authenticated caller through to a route of `level`, or throws the refusal. */
  const admit = (request: FastifyRequest, caller: AuthContext, level: 'user' | 'admin') => {
    if (level === 'admin' && caller.role !== 'ADMIN') throw forbidden('Administrators only');
    // Set on a session's caller only (sessions.repository.ts): an API key made before the setting keeps working.
    if (caller.account?.twoFactorEnrolmentRequired && request.routeOptions.config.beforeTwoFactorEnrolment !== true) {
      throw twoFactorEnrolmentRequired();
    }
    request.auth = caller;
  };

  const guardNode = async (request: FastifyRequest, token: string | undefined) => {
    if (!token) throw unauthorized('Node token required');
    const node = await authenticators.authenticateNode(token);
    if (!node) throw unauthorized('Invalid node token');
    request.node = node;
  };

  const guardAccount = async (
    request: FastifyRequest,
    reply: FastifyReply,
    level: 'user' | 'admin',
    token: string | undefined,
  ) => {
    if (!token) throw unauthorized();
    const caller = await authenticators.authenticate(token);
    if (!caller) throw unauthorized('Invalid or expired token');
    if (caller.apiKey) {
      await authenticators.admitApiKey(caller.apiKey, {
        method: request.method,
        sessionOnly: request.routeOptions.config.sessionOnly === true,
        revealsSecret: request.routeOptions.config.revealsSecret === true,
        address: request.ip,
        header: (name, value) => reply.header(name, value),
      });
    }
    admit(request, caller, level);
  };

  // In callback form, so that a session already checked (most requests) is let through without a promise.
  app.addHook('onRequest', (request, reply, done) => {
    const level = request.routeOptions.config.auth;
    if (level !== 'node' && level !== 'user' && level !== 'admin') {
      done();
      return;
    }
    const token = bearerOf(request);
    if (level === 'node') {
      guardNode(request, token).then(() => done(), done);
      return;
    }
    const cached = token ? authenticators.cachedCaller(token) : null;
    if (!cached) {
      guardAccount(request, reply, level, token).then(() => done(), done);
      return;
    }
    try {
      admit(request, cached, level);
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  });
}
