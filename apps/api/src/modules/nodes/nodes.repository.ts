import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { NodeLoadSamplesTable, NodesTable } from '../../db/schema.js';

export type NodeRow = Omit<NodesTable, 'created_at' | 'updated_at'> & { created_at: Date; updated_at: Date };
export type NodeFields = Omit<NodesTable, 'id' | 'token_hash' | 'created_at' | 'updated_at' | 'draining_since'>;
export type LoadSample = Omit<Insertable<NodeLoadSamplesTable>, 'node_id'>;
export type LoadSampleRow = Selectable<NodeLoadSamplesTable>;

/** Nodes, their token hashes and the load samples they report. */
export class NodesRepository {
  constructor(private readonly db: Db) {}

  list(): Promise<NodeRow[]> {
    return this.db.selectFrom('nodes').selectAll().orderBy(sql`lower(name)`).orderBy('id').execute();
  }

  async findById(id: string): Promise<NodeRow | null> {
    return (await this.db.selectFrom('nodes').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  /** The nodes serving an account's streams: those ingesting them and the edges of their outputs. */
  servingAccount(accountId: string): Promise<NodeRow[]> {
    return this.db
      .selectFrom('nodes')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb.exists(
            eb
              .selectFrom('inputs')
              .select('inputs.id')
              .whereRef('inputs.node_id', '=', 'nodes.id')
              .where('inputs.owner_id', '=', accountId),
          ),
          eb.exists(
            eb
              .selectFrom('outputs')
              .innerJoin('inputs', 'inputs.id', 'outputs.input_id')
              .select('outputs.id')
              .whereRef('outputs.node_id', '=', 'nodes.id')
              .where('inputs.owner_id', '=', accountId),
          ),
        ]),
      )
      .execute();
  }

  async findByTokenHash(tokenHash: string): Promise<{ id: string; name: string } | null> {
    return (
      (await this.db
        .selectFrom('nodes')
        .select(['id', 'name'])
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst()) ?? null
    );
  }

  insert(node: NodeFields & { id: string; token_hash: string }, now: Date): Promise<NodeRow> {
    return this.db
      .insertInto('nodes')
      .values({ ...node, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async update(id: string, changes: Partial<NodeFields & { token_hash: string }>, now: Date): Promise<NodeRow | null> {
    return (
      (await this.db
        .updateTable('nodes')
        .set({ ...changes, updated_at: now })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst()) ?? null
    );
  }

  /** Starts (a time) or stops (null) the node's drain; a drain already started keeps its time. Null: no node. */
  async setDraining(id: string, since: Date | null): Promise<NodeRow | null> {
    return (
      (await this.db
        .updateTable('nodes')
        .set({ draining_since: since === null ? null : sql<Date>`coalesce(draining_since, ${since})` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst()) ?? null
    );
  }

  /** What is left on the node: its live pushes, its other streams and the viewer outputs it serves as an edge. */
  async drainLeft(id: string): Promise<{ live: number; other: number; edgeOutputs: number }> {
    const row = await this.db
      .selectNoFrom((eb) => [
        eb
          .selectFrom('inputs')
          .select((inner) => inner.fn.countAll<number>().as('n'))
          .where('node_id', '=', id)
          .where('status', 'in', ['Ingestion', 'Fallback'])
          .as('live'),
        eb
          .selectFrom('inputs')
          .select((inner) => inner.fn.countAll<number>().as('n'))
          .where('node_id', '=', id)
          .where('status', 'not in', ['Ingestion', 'Fallback'])
          .as('other'),
        eb
          .selectFrom('outputs')
          .select((inner) => inner.fn.countAll<number>().as('n'))
          .where('node_id', '=', id)
          .as('edge_outputs'),
      ])
      .executeTakeFirstOrThrow();
    return { live: Number(row.live), other: Number(row.other), edgeOutputs: Number(row.edge_outputs) };
  }

  /** Removes the node; its samples, report ids and node group memberships go with it (cascade). */
  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('nodes').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async latestLoad(nodeId: string): Promise<LoadSampleRow | null> {
    return (
      (await this.db
        .selectFrom('node_load_samples')
        .selectAll()
        .where('node_id', '=', nodeId)
        .orderBy('at', 'desc')
        .limit(1)
        .executeTakeFirst()) ?? null
    );
  }

  /** The latest sample of every node that reported, by node id. */
  async latestLoads(): Promise<Map<string, LoadSampleRow>> {
    const rows = await this.db
      .selectFrom('node_load_samples')
      .distinctOn('node_id')
      .selectAll()
      .orderBy('node_id')
      .orderBy('at', 'desc')
      .execute();
    return new Map(rows.map((row) => [row.node_id, row]));
  }

  /** Stores samples; a second sample at the same instant replaces the first. */
  async upsertLoadSamples(nodeId: string, samples: LoadSample[]): Promise<void> {
    if (samples.length === 0) return;
    await this.db
      .insertInto('node_load_samples')
      .values(samples.map((sample) => ({ ...sample, node_id: nodeId })))
      .onConflict((oc) =>
        oc.columns(['node_id', 'at']).doUpdateSet((eb) => ({
          cpu_percent: eb.ref('excluded.cpu_percent'),
          bandwidth_mbps: eb.ref('excluded.bandwidth_mbps'),
          sessions: eb.ref('excluded.sessions'),
          health: eb.ref('excluded.health'),
        })),
      )
      .execute();
  }

  async pruneLoadSamples(nodeId: string, before: Date): Promise<void> {
    await this.db.deleteFrom('node_load_samples').where('node_id', '=', nodeId).where('at', '<', before).execute();
  }
}
