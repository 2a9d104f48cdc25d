import { createHmac } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { DatabaseHandle } from './db/database.js';
import { type Clock, systemClock } from './lib/clock.js';
import { OWASP_SCRYPT, type ScryptCost } from './lib/password.js';
import { TokenSigner } from './lib/tokens.js';
import { AccountsRepository } from './modules/accounts/accounts.repository.js';
import { registerAccountRoutes } from './modules/accounts/accounts.routes.js';
import { AccountsService } from './modules/accounts/accounts.service.js';
import { AuditRepository } from './modules/audit/audit.repository.js';
import { registerAuthRoutes } from './modules/auth/auth.routes.js';
import { AuthService, DEFAULT_LOGIN_THROTTLE, type LoginThrottle } from './modules/auth/auth.service.js';
import { LoginThrottleRepository } from './modules/auth/login-throttle.repository.js';
import { SessionsRepository } from './modules/auth/sessions.repository.js';
import { registerHealthRoutes } from './modules/health/health.routes.js';
import { registerAuthGuard } from './plugins/auth-guard.js';
import { registerConsole } from './plugins/console-static.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { registerOpenApi } from './plugins/openapi.js';
import { registerSecurity } from './plugins/security.js';

export interface AppOptions {
  database: DatabaseHandle;
  /** Root secret; the token-signing and anti-forgery keys are derived from it. */
  secret: string;
  logger?: FastifyServerOptions['logger'];
  clock?: Clock;
  scryptCost?: ScryptCost;
  loginThrottle?: LoginThrottle;
  /** Login requests per address and window, failed or not. */
  loginFloodLimit?: { max: number; timeWindow: string };
  consoleDir?: string;
  storagePrefix?: string;
}

export interface AppServices {
  accounts: AccountsService;
  auth: AuthService;
  audit: AuditRepository;
}

const deriveKey = (secret: string, purpose: string) => createHmac('sha256', secret).update(purpose).digest('base64url');

/** The whole control plane as one Fastify instance: plugins, then modules, then one error handler. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance & { services: AppServices }> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 1024 * 1024,
    trustProxy: false,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    ajv: { customOptions: { removeAdditional: false } },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The API speaks JSON only: anything else is refused with 415 rather than validated as a string.
  app.removeContentTypeParser('text/plain');
  registerErrorHandler(app);

  const { db } = options.database;
  const clock = options.clock ?? systemClock;
  const scryptCost = options.scryptCost ?? OWASP_SCRYPT;
  const accountsRepository = new AccountsRepository(db);
  const audit = new AuditRepository(db);
  const auth = new AuthService({
    accounts: accountsRepository,
    sessions: new SessionsRepository(db),
    throttle: new LoginThrottleRepository(db),
    audit,
    signer: new TokenSigner(deriveKey(options.secret, 'jwt')),
    clock,
    scryptCost,
    loginThrottle: options.loginThrottle ?? DEFAULT_LOGIN_THROTTLE,
  });
  const accounts = new AccountsService({ accounts: accountsRepository, audit, clock, scryptCost });

  await registerSecurity(app, deriveKey(options.secret, 'anti-forgery'));
  await app.register(rateLimit, { global: false });
  await registerOpenApi(app);
  registerAuthGuard(app, auth);

  registerHealthRoutes(app, options.database);
  registerAuthRoutes(app, auth, options.loginFloodLimit);
  registerAccountRoutes(app, accounts, auth);
  await registerConsole(app, options.consoleDir, { apiBase: '/api/v1', storagePrefix: options.storagePrefix ?? '' });

  const services: AppServices = { accounts, auth, audit };
  return Object.assign(app as FastifyInstance, { services });
}
