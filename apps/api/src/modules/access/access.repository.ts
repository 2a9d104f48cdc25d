import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/** What access is judged by: the account a resource belongs to, and the stream and node it is on. */
export interface AccessFacts {
  /** Null for what belongs to no account (the streaming cloud's own node groups). */
  ownerId: string | null;
  /** The stream the resource is, or is attached to (null for what is on no stream). */
  streamId: string | null;
  /** The node serving that stream (null while it waits for one, and for what is on no stream). */
  nodeId: string | null;
}

/**
 * How the facts of one kind of resource are read, as its module's manifest declares it (`access`):
 * - a row of an account: its `table` and the `owner` column naming the account (`owner_id`, `account_id`),
 *   with the columns of its stream and node when the row is a stream; `unlessSet` names a column that ends
 *   the row's life (a revoked key is not found);
 * - a row attached to a stream: its `table` and the column naming the stream (`onStream`);
 * - anything else: its own `facts` query (a stream as usage bills it).
 * `entity` is how a 404 names it.
 */
export type AccessDefinition =
  | { entity: string; table: string; owner: string; stream?: string; node?: string; unlessSet?: string }
  | { entity: string; table: string; onStream: string }
  | { entity: string; facts(db: Db, id: string): Promise<AccessFacts | null> };

/** The one place that reads who owns what (every module's access check goes through it). */
export class AccessRepository {
  constructor(
    private readonly db: Db,
    private readonly definitions: ReadonlyMap<string, AccessDefinition>,
  ) {}

  definition(resource: string): AccessDefinition {
    const definition = this.definitions.get(resource);
    if (!definition) throw new Error(`No module declares the access resource ${resource}`);
    return definition;
  }

  async facts(resource: string, id: string): Promise<AccessFacts | null> {
    const definition = this.definition(resource);
    if ('facts' in definition) return definition.facts(this.db, id);
    if ('onStream' in definition) {
      return this.first(
        sql<AccessFacts>`select i.owner_id as "ownerId", i.id as "streamId", i.node_id as "nodeId"
          from ${sql.table(definition.table)} r join inputs i on i.id = ${sql.ref(`r.${definition.onStream}`)}
          where r.id = ${id}`,
      );
    }
    const column = (name: string | undefined) => (name ? sql.ref(`r.${name}`) : sql`null`);
    const alive = definition.unlessSet ? sql` and ${sql.ref(`r.${definition.unlessSet}`)} is null` : sql``;
    return this.first(
      sql<AccessFacts>`select ${sql.ref(`r.${definition.owner}`)} as "ownerId", ${column(definition.stream)} as "streamId",
        ${column(definition.node)} as "nodeId" from ${sql.table(definition.table)} r where r.id = ${id}${alive}`,
    );
  }

  private async first(query: { execute(db: Db): Promise<{ rows: AccessFacts[] }> }): Promise<AccessFacts | null> {
    return (await query.execute(this.db)).rows[0] ?? null;
  }
}
