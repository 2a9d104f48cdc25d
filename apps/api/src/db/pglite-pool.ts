import type { PGlite } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/**
 * Presents one PGlite instance as the pool Kysely's PostgresDialect expects.
 * PGlite is a single session, so a "connection" is an exclusive lease: a transaction's
 * statements never interleave with another request's.
 */
export class PGlitePool implements PostgresPool {
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly pglite: PGlite) {}

  async connect(): Promise<PostgresPoolClient> {
    let release!: () => void;
    const leased = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.queue;
    this.queue = previous.then(() => leased);
    await previous;
    const pglite = this.pglite;
    return {
      async query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>> {
        // Without parameters the simple protocol runs, which also takes several statements (migrations).
        const result =
          parameters.length === 0 ? lastOf(await pglite.exec(sql)) : await pglite.query<R>(sql, [...parameters]);
        return {
          command: commandOf(sql),
          rowCount: result.affectedRows ?? result.rows.length,
          rows: result.rows as R[],
        };
      },
      release,
    } as PostgresPoolClient;
  }

  async end(): Promise<void> {
    await this.queue;
    await this.pglite.close();
  }
}

function commandOf(sql: string): PostgresQueryResult<unknown>['command'] {
  const keyword = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase();
  return (
    keyword === 'INSERT' || keyword === 'UPDATE' || keyword === 'DELETE' || keyword === 'MERGE' ? keyword : 'SELECT'
  ) as PostgresQueryResult<unknown>['command'];
}

function lastOf<T>(results: T[]): T {
  const last = results[results.length - 1];
  if (last === undefined) throw new Error('PGlite answered no result');
  return last;
}
