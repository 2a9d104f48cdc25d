import type { Db } from '../../db/database.js';

/** What access is judged by: the account a resource belongs to, and the stream and node it is on. */
export interface AccessFacts {
  /** Null for what belongs to no account (the streaming cloud's own node groups). */
  ownerId: string | null;
  /** The stream the resource is, or is attached to (null for storages and node groups). */
  streamId: string | null;
  /** The node serving that stream (null while it waits for one, and for storages and node groups). */
  nodeId: string | null;
}

/** The resources whose access is checked; `billedStream` is a stream as usage bills it, also once deleted. */
export type Resource =
  | 'stream'
  | 'output'
  | 'fallback'
  | 'recording'
  | 'relay'
  | 'storage'
  | 'nodeGroup'
  | 'billedStream';

/** Resources of an account that are on no stream, by the table that holds them. */
const OF_AN_ACCOUNT = { storage: 'storages', nodeGroup: 'node_groups' } as const;
/** Resources attached to a stream, by the table that holds them. */
const ON_A_STREAM = { output: 'outputs', fallback: 'fallbacks', recording: 'recordings', relay: 'relays' } as const;

/** The one place that reads who owns what (every module's access check goes through it). */
export class AccessRepository {
  constructor(private readonly db: Db) {}

  async facts(resource: Resource, id: string): Promise<AccessFacts | null> {
    switch (resource) {
      case 'stream':
        return this.first(
          this.db
            .selectFrom('inputs')
            .select(['owner_id as ownerId', 'id as streamId', 'node_id as nodeId'])
            .where('id', '=', id),
        );
      case 'output':
      case 'fallback':
      case 'recording':
      case 'relay':
        return this.first(
          this.db
            .selectFrom(this.db.dynamic.table(ON_A_STREAM[resource]).as('r'))
            .innerJoin('inputs as i', 'i.id', 'r.input_id')
            .select(['i.owner_id as ownerId', 'i.id as streamId', 'i.node_id as nodeId'])
            .where('r.id', '=', id),
        );
      case 'storage':
      case 'nodeGroup':
        return this.first(
          this.db
            .selectFrom(this.db.dynamic.table(OF_AN_ACCOUNT[resource]).as('r'))
            .select((eb) => ['r.owner_id as ownerId', eb.lit(null).as('streamId'), eb.lit(null).as('nodeId')])
            .where('r.id', '=', id),
        );
      case 'billedStream': {
        // Usage is billed to the account the stream had when it first reported, kept after it is deleted.
        const row = await this.db
          .selectNoFrom((eb) => [
            eb.fn
              .coalesce(
                eb.selectFrom('usage_streams').select('account_id').where('stream_id', '=', id),
                eb.selectFrom('inputs').select('owner_id').where('id', '=', id),
              )
              .as('ownerId'),
            eb.selectFrom('inputs').select('node_id').where('id', '=', id).as('nodeId'),
          ])
          .executeTakeFirst();
        return row?.ownerId ? { ownerId: row.ownerId, streamId: id, nodeId: row.nodeId ?? null } : null;
      }
    }
  }

  private async first(query: { executeTakeFirst(): Promise<AccessFacts | undefined> }): Promise<AccessFacts | null> {
    return (await query.executeTakeFirst()) ?? null;
  }
}
