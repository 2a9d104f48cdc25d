import type { ClipState } from '@streamcloud/contract';
import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { ClipsTable } from './clips.table.js';

export type ClipRow = Selectable<ClipsTable>;
export type NewClip = Insertable<ClipsTable>;
export type ClipOutcome = Partial<Pick<ClipRow, 'message' | 'duration' | 'size' | 'object_key' | 'finished_at'>>;

/** A stream's list shows at most this many (newest first). */
export const CLIPS_LISTED = 200;
/** What one node's read of its waiting clips answers at most (oldest first; the rest come on later reads). */
const WAITING_LISTED = 50;

export class ClipsRepository {
  constructor(private readonly db: Db) {}

  async insert(clip: NewClip): Promise<void> {
    await this.db.insertInto('clips').values(clip).execute();
  }

  async findById(id: string): Promise<ClipRow | null> {
    return (await this.db.selectFrom('clips').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  async ofStream(streamId: string): Promise<ClipRow[]> {
    return this.db
      .selectFrom('clips')
      .selectAll()
      .where('input_id', '=', streamId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(CLIPS_LISTED)
      .execute();
  }

  /**
   * Per storage, the Ready clips in it and their bytes: the storages of `ownerId` (every storage for null). A clip
   * whose storage was deleted counts nowhere (its object is its owner's to remove).
   */
  async useByStorage(ownerId: string | null): Promise<Array<{ storage_id: string; clips: number; bytes: number }>> {
    let query = this.db
      .selectFrom('clips')
      .innerJoin('storages', 'storages.id', 'clips.storage_id')
      .select([
        'storages.id as storage_id',
        sql<number>`count(*)::int`.as('clips'),
        sql<number>`coalesce(sum(clips.size), 0)::float8`.as('bytes'),
      ])
      .where('clips.state', '=', 'Ready')
      .groupBy('storages.id')
      .orderBy('storages.id');
    if (ownerId !== null) query = query.where('storages.owner_id', '=', ownerId);
    return query.execute();
  }

  /** The clips a node should cut: Pending or Processing, oldest first. */
  async waitingOn(nodeId: string): Promise<ClipRow[]> {
    return this.db
      .selectFrom('clips')
      .selectAll()
      .where('node_id', '=', nodeId)
      .where('state', 'in', ['Pending', 'Processing'])
      .orderBy('created_at')
      .limit(WAITING_LISTED)
      .execute();
  }

  /**
   * Moves a clip to `state` only from one of `from` (and, for a node's report, only the clip of that node): one
   * statement, so of two changes racing one wins. Answers the row after the change, or null when it did not apply.
   */
  async transition(
    id: string,
    from: readonly ClipState[],
    state: ClipState,
    outcome: ClipOutcome,
    nodeId: string | null,
  ): Promise<ClipRow | null> {
    let update = this.db
      .updateTable('clips')
      .set({ state, ...outcome })
      .where('id', '=', id)
      .where('state', 'in', [...from]);
    if (nodeId) update = update.where('node_id', '=', nodeId);
    return (await update.returningAll().executeTakeFirst()) ?? null;
  }

  /** Clips still waiting (Pending or Processing) that were asked for before `before`. */
  async overdue(before: Date): Promise<ClipRow[]> {
    return this.db
      .selectFrom('clips')
      .selectAll()
      .where('state', 'in', ['Pending', 'Processing'])
      .where('created_at', '<', before)
      .limit(WAITING_LISTED)
      .execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('clips').where('id', '=', id).execute();
  }
}
