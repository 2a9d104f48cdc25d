import type { DatabaseConnection, Dialect, Driver, QueryCompiler, TransactionSettings } from 'kysely';

/** 'begin' before a transaction starts; 'end' once it has committed or rolled back (or failed to start). */
export type TransactionPhase = 'begin' | 'end';
export type TransactionListener = (phase: TransactionPhase) => void;

/**
 * The transactions run on one database handle, for what keeps answers read from the database (the
 * response cache): a Kysely plugin sees a transaction's statements but not its commit, and a reader that
 * ran between a writer's statement and its commit read what was there before it.
 */
export class TransactionEvents {
  private readonly listeners = new Set<TransactionListener>();

  /** Calls `listener` on every transaction's begin and end until the answered function is called. */
  subscribe(listener: TransactionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The dialect with a driver that tells the listeners as it begins and ends each transaction. */
  watching(dialect: Dialect): Dialect {
    return {
      createAdapter: () => dialect.createAdapter(),
      createQueryCompiler: () => dialect.createQueryCompiler(),
      createIntrospector: (db) => dialect.createIntrospector(db),
      createDriver: () => new WatchedDriver(dialect.createDriver(), (phase) => this.emit(phase)),
    };
  }

  private emit(phase: TransactionPhase): void {
    for (const listener of this.listeners) listener(phase);
  }
}

type Compile = QueryCompiler['compileQuery'];

class WatchedDriver implements Driver {
  /** The connections in a transaction: a rollback after a failed commit ends nothing more. */
  private readonly inTransaction = new WeakSet<DatabaseConnection>();

  constructor(
    private readonly driver: Driver,
    private readonly emit: (phase: TransactionPhase) => void,
  ) {}

  init = () => this.driver.init();
  acquireConnection = () => this.driver.acquireConnection();
  releaseConnection = (connection: DatabaseConnection) => this.driver.releaseConnection(connection);
  destroy = () => this.driver.destroy();

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    this.inTransaction.add(connection);
    this.emit('begin');
    try {
      await this.driver.beginTransaction(connection, settings);
    } catch (error) {
      this.end(connection);
      throw error;
    }
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.ending(connection, this.driver.commitTransaction(connection));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.ending(connection, this.driver.rollbackTransaction(connection));
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: Compile): Promise<void> {
    await this.driver.savepoint?.(connection, name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: Compile): Promise<void> {
    await this.driver.rollbackToSavepoint?.(connection, name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: Compile): Promise<void> {
    await this.driver.releaseSavepoint?.(connection, name, compile);
  }

  /** The transaction is over however its commit or rollback went (a failed commit has rolled back). */
  private async ending(connection: DatabaseConnection, done: Promise<void>): Promise<void> {
    try {
      await done;
    } finally {
      this.end(connection);
    }
  }

  private end(connection: DatabaseConnection): void {
    if (this.inTransaction.delete(connection)) this.emit('end');
  }
}
