import type { Db } from './database.js';

/**
 * The parts of a unit of work, by name: every module's repositories and the ports it exposes to other
 * modules. Empty here: each module declares its parts from its manifest (`declare module
 * '../../db/unit-of-work.js' { interface UnitOfWorkParts { … } }`) and makes them there
 * (`repositories`, `ports`); `access` and `events` are the app's own (modules/access, modules/events.ts).
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the modules' declaration merging
export interface UnitOfWorkParts {}

/** How the parts are made (modules/module.ts `unitOfWorkRecipe`, from the modules' manifests). */
export interface UnitOfWorkRecipe {
  /** Made on the unit of work's connection: repositories, access. */
  parts: [name: string, make: (db: Db) => unknown][];
  /** Made from the other parts once they are made: the ports modules expose, the event publisher. */
  ports: [name: string, make: (uow: UnitOfWork) => unknown][];
}

/**
 * Every repository on one connection, made in this one place: the app's unit of work runs on the pool
 * and serves every request; `transaction(work)` hands `work` a unit of work on one transaction, so what it
 * does is done all or nothing (node report batches get one as `context.uow`).
 *
 * A service is given the part it may use (`Scope`): its module's repositories, the audit log, access, and
 * the ports other modules expose here (`credentials`, `sessionRevocation`, `streamCatalog`, `storageUsage`); never another
 * module's repository.
 */
export interface UnitOfWork extends UnitOfWorkParts {}
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the parts are declared by the modules and made in the constructor
export class UnitOfWork {
  constructor(
    private readonly db: Db,
    private readonly recipe: UnitOfWorkRecipe,
  ) {
    const parts = this as unknown as Record<string, unknown>;
    for (const [name, make] of recipe.parts) parts[name] = make(db);
    for (const [name, make] of recipe.ports) parts[name] = make(this);
  }

  /** Runs `work` on one transaction (or, already inside one, on it): committed when it resolves. */
  transaction<T>(work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return work(this);
    return this.db.transaction().execute((trx) => work(new UnitOfWork(trx, this.recipe)));
  }
}

/** The repositories and ports of a unit of work, by name. */
export type UnitOfWorkPart = Exclude<keyof UnitOfWork, 'transaction'>;

/**
 * The part of a unit of work a service may use, and transactions on that same part: e.g.
 * `Scope<'fallbacks' | 'access' | 'audit'>`. A whole unit of work is one.
 */
export type Scope<K extends UnitOfWorkPart> = Pick<UnitOfWork, K> & {
  transaction<T>(work: (uow: Scope<K>) => Promise<T>): Promise<T>;
};
