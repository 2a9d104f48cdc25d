import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppOptions, AppServices } from '../app.js';
import type { ResponseCache } from '../db/response-cache.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import type { Clock } from '../lib/clock.js';
import type { HashingGate } from '../lib/hashing-gate.js';
import type { Outbound } from '../lib/outbound.js';
import type { ScryptCost } from '../lib/password.js';
import type { SecretBox } from '../lib/secret-box.js';
import type { SessionCache } from './auth/session-cache.js';

/** What app.ts gives every module. */
export interface ModuleContext {
  /** The app's unit of work: every repository and port, on the pool (`transaction` for one transaction). */
  uow: UnitOfWork;
  clock: Clock;
  options: AppOptions;
  /** The password hashing cost (OWASP's unless the options say otherwise). */
  scryptCost: ScryptCost;
  /** Bounds the password hashing done at once: sign-in and account changes share it. */
  hashing: HashingGate;
  /** The guarded agents every outbound connection goes through (users' destinations, the operator's). */
  outbound: Outbound;
  /** Seals storage secrets, relay stream keys and TOTP secrets (each bound to its row as additional data). */
  secrets: SecretBox;
  /** The callers of the tokens this process checked (modules/auth), dropped as sessions and accounts change. */
  sessionCache: SessionCache;
  /** Answers of the hottest reads (the stream list and a stream), dropped on any write (db/response-cache.ts). */
  responseCache: ResponseCache;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Each module's service, set as the module registers (tests and server.ts read them). */
    services: AppServices;
    moduleContext: ModuleContext;
    /** Whether this process leads the API processes sharing its database (runs the periodic jobs). */
    leadership: { leads(): boolean };
  }
}

/**
 * A module of the control plane: a Fastify plugin that makes its service, puts it in `app.services`, and
 * registers its routes, the node report kinds it handles and its periodic jobs. It is not encapsulated, so
 * the modules registered after it (named in `dependencies`) use its service; app.ts only lists modules.
 */
export function defineModule(
  name: string,
  register: (app: FastifyInstance, context: ModuleContext) => Promise<void> | void,
  dependencies: string[] = [],
) {
  return fp(async (app: FastifyInstance) => register(app, app.moduleContext), { name, dependencies });
}
