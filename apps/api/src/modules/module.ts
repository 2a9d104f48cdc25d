import type { FastifyInstance, FastifyPluginAsync, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { DatabaseHandle, Db } from '../db/database.js';
import type { ResponseCache } from '../db/response-cache.js';
import type { UnitOfWork, UnitOfWorkParts, UnitOfWorkRecipe } from '../db/unit-of-work.js';
import type { Clock } from '../lib/clock.js';
import type { HashingGate } from '../lib/hashing-gate.js';
import type { Outbound } from '../lib/outbound.js';
import type { ScryptCost } from '../lib/password.js';
import type { SecretBox } from '../lib/secret-box.js';
import { Access, type AccessDefinition, AccessRepository, type Resource } from './access/access.js';
import type { SessionCache } from './auth/session-cache.js';
import type { EventBus } from './events.js';

/**
 * Options of buildApp. These are the app's own; each module adds its options here from its manifest
 * (`declare module '../module.js' { interface AppOptions { … } }`).
 */
export interface AppOptions {
  database: DatabaseHandle;
  /** Root secret; the token-signing and anti-forgery keys are derived from it. */
  secret: string;
  logger?: FastifyServerOptions['logger'];
  clock?: Clock;
  scryptCost?: ScryptCost;
  /** Bounds the password hashing done at once (lib/hashing-gate.ts); the default limits otherwise. */
  hashing?: HashingGate;
  consoleDir?: string;
  storagePrefix?: string;
  /** 32-byte key sealing storage secrets (server.ts: STORAGE_ENCRYPTION_KEY or a key file under DATA_DIR); derived from `secret` when absent. */
  storageEncryptionKey?: Buffer;
  /** The guards of outbound connections; users' destinations public only, the operator's private too, by default. */
  outbound?: Outbound;
  /** How often PGlite's tables past autovacuum's thresholds are vacuumed (db/vacuum.ts); only when set. */
  vacuumIntervalMs?: number;
}

/**
 * Each module's service, set as the module registers (tests and server.ts read them as `app.services`).
 * Empty here: each module declares its own from its manifest (`declare module '../module.js'`).
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the modules' declaration merging
export interface AppServices {}

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
  /**
   * Domain events between modules: a module subscribes from its `register` (`events.subscribe(name,
   * handler)`); the owner publishes with `uow.events.publish(name, event)` in its own transaction.
   */
  events: EventBus;
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
 * A module's manifest: the one place a resource of the API is declared. Its table types are merged into
 * `Database` (db/schema.ts) beside it; the names below are merged into the unit of work, the access
 * resources, `AppServices` and `AppOptions` from the manifest's file (`declare module`).
 */
export interface ModuleManifest {
  name: string;
  /** The modules whose services this one uses: they register before it. */
  dependencies?: string[];
  /** The tables the module owns (its SQL touches no other table but through another module's port). */
  tables?: readonly string[];
  /** Its repositories in the unit of work, by name: each made on the unit of work's connection. */
  repositories?: { [K in keyof UnitOfWorkParts]?: new (db: Db) => UnitOfWorkParts[K] };
  /** The ports it exposes in the unit of work for other modules, made from the unit of work's parts. */
  ports?: { [K in keyof UnitOfWorkParts]?: (uow: UnitOfWork) => UnitOfWorkParts[K] };
  /** Its resources the access helper checks (`uow.access.require(auth, resource, id)`), with their owner column. */
  access?: { [R in Resource]?: AccessDefinition };
  /** The OpenAPI tags of its routes, with their descriptions. */
  tags?: Record<string, string>;
  /**
   * Makes the service, puts it in `app.services`, and registers its routes, the node report kinds it
   * handles (`app.services.nodeReports.registerReportHandler`) and its periodic jobs (`registerPeriodicJob`).
   */
  register(app: FastifyInstance, context: ModuleContext): Promise<void> | void;
}

/** A module: a Fastify plugin made from its manifest, which app.ts also reads to build the unit of work. */
export type Module = FastifyPluginAsync & { manifest: ModuleManifest };

/**
 * A module of the control plane: a Fastify plugin that makes its service, puts it in `app.services`, and
 * registers its routes, the node report kinds it handles and its periodic jobs. It is not encapsulated, so
 * the modules registered after it (named in `dependencies`) use its service; app.ts only lists modules.
 */
export function defineModule(manifest: ModuleManifest): Module {
  const plugin: FastifyPluginAsync = fp(async (app: FastifyInstance) => manifest.register(app, app.moduleContext), {
    name: manifest.name,
    dependencies: manifest.dependencies ?? [],
  });
  return Object.assign(plugin, { manifest });
}

/**
 * How the modules' manifests make a unit of work: every module's repositories, then access (over every
 * module's access resources) and the event bus, then the ports.
 */
export function unitOfWorkRecipe(manifests: ModuleManifest[], events: EventBus): UnitOfWorkRecipe {
  const access = new Map<string, AccessDefinition>();
  const parts: UnitOfWorkRecipe['parts'] = [];
  const ports: UnitOfWorkRecipe['ports'] = [];
  const named = new Set<string>();
  const name = (part: string, module: string) => {
    if (named.has(part)) throw new Error(`The unit of work's part ${part} is declared twice (module ${module})`);
    named.add(part);
    return part;
  };
  for (const manifest of manifests) {
    for (const [resource, definition] of Object.entries(manifest.access ?? {})) {
      if (access.has(resource)) throw new Error(`The access resource ${resource} is declared twice`);
      if (definition) access.set(resource, definition);
    }
    for (const [part, Repository] of Object.entries(manifest.repositories ?? {}))
      parts.push([name(part, manifest.name), (db) => new (Repository as new (db: Db) => unknown)(db)]);
    for (const [part, port] of Object.entries(manifest.ports ?? {}))
      ports.push([name(part, manifest.name), port as (uow: UnitOfWork) => unknown]);
  }
  parts.push([name('access', 'access'), (db) => new Access(new AccessRepository(db, access))]);
  ports.push([name('events', 'events'), (uow) => events.on(uow)]);
  return { parts, ports };
}
