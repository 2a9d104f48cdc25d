import type { Fallback } from '@streamcloud/contract';
import type { Db } from '../../db/database.js';
import type { FallbacksTable } from '../../db/schema.js';

export type FallbackRow = Omit<FallbacksTable, 'state' | 'resources' | 'created_at' | 'updated_at'> & {
  state: Fallback['state'];
  resources: Fallback['settings']['resources'];
  created_at: Date;
  updated_at: Date;
};

export type FallbackChanges = Pick<FallbackRow, 'type' | 'label' | 'resources'>;

/** A stream's fallbacks and the states their node reports. */
export class FallbacksRepository {
  constructor(private readonly db: Db) {}

  async list(streamId: string): Promise<FallbackRow[]> {
    return (await this.db
      .selectFrom('fallbacks')
      .selectAll()
      .where('input_id', '=', streamId)
      .orderBy('created_at')
      .orderBy('id')
      .execute()) as FallbackRow[];
  }

  async findById(id: string): Promise<FallbackRow | null> {
    return ((await this.db.selectFrom('fallbacks').selectAll().where('id', '=', id).executeTakeFirst()) ??
      null) as FallbackRow | null;
  }

  async insert(row: { id: string; input_id: string } & FallbackChanges, now: Date): Promise<void> {
    await this.db
      .insertInto('fallbacks')
      .values({ ...row, resources: JSON.stringify(row.resources), created_at: now, updated_at: now })
      .execute();
  }

  /** A changed fallback waits for its node again: Pending, without the node's last message. */
  async update(id: string, changes: FallbackChanges, now: Date): Promise<void> {
    await this.db
      .updateTable('fallbacks')
      .set({
        ...changes,
        resources: JSON.stringify(changes.resources),
        state: 'Pending',
        message: null,
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
  }

  async setState(id: string, state: Fallback['state'], message: string | null | undefined, now: Date): Promise<void> {
    await this.db
      .updateTable('fallbacks')
      .set({ state, ...(message !== undefined ? { message } : {}), updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('fallbacks').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
