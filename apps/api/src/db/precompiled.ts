import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './database.js';
import { prepareStatement } from './prepared-statements.js';

/** Stands for a value in a query built once; each run puts the value in its place. */
class Placeholder {
  constructor(readonly name: string) {}
}

/**
 * A query Kysely builds and compiles once, then runs with new values in its placeholders: building and
 * compiling a query on every request was a fifth of the API's CPU on a GET /inputs/{id}. `build` receives
 * a placeholder per value (typed as the value) and must use them only as values (`where(column, '=', id)`),
 * never to choose the query's shape. Both engines speak PostgreSQL's dialect, so one compiled text serves
 * every database handle and transaction; on PostgreSQL it runs as a named prepared statement
 * (db/prepared-statements.ts), parsed and planned once per connection.
 */
export function precompiled<Values extends Record<string, unknown>, Row>(
  build: (db: Db, values: Values) => Compilable<Row>,
): (db: Db, values: Values) => Promise<Row[]> {
  let compiled: CompiledQuery<Row> | undefined;
  return async (db, values) => {
    compiled ??= build(
      db,
      new Proxy({} as Values, { get: (_target, name) => new Placeholder(String(name)) }),
    ).compile();
    prepareStatement(compiled.sql);
    const parameters = compiled.parameters.map((value) => (value instanceof Placeholder ? values[value.name] : value));
    return (await db.executeQuery<Row>({ ...compiled, parameters })).rows;
  };
}
