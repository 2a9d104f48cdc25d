import type { Fallback } from '@streamcloud/contract';
import type { Db } from '../../db/database.js';
import type { FallbacksTable } from '../../db/schema.js';

export type FallbackRow = Omit<FallbacksTable, 'state' | 'resources' | 'created_at' | 'updated_at'> & {
  state: Fallback['state'];
  resources: Fallback['settings']['resources'];
  created_at: Date;
  updated_at: Date;
};

export interface FallbackWithInput extends FallbackRow {
  owner_id: string;
  node_id: string | null;
}

export type FallbackChanges = Pick<FallbackRow, 'type' | 'label' | 'resources'>;

export class FallbacksRepository {
  constructor(private readonly db: Db) {}

  async list(inputId: string): Promise<FallbackRow[]> {
    return (await this.db
      .selectFrom('fallbacks')
      .selectAll()
      .where('input_id', '=', inputId)
      .orderBy('created_at')
      .orderBy('id')
      .execute()) as FallbackRow[];
  }

  /** The fallback with its input's owner and node (for ownership and node reports). */
  async find(id: string): Promise<FallbackWithInput | null> {
    const row = await this.db
      .selectFrom('fallbacks as f')
      .innerJoin('inputs as i', 'i.id', 'f.input_id')
      .selectAll('f')
      .select(['i.owner_id', 'i.node_id'])
      .where('f.id', '=', id)
      .executeTakeFirst();
    return (row as FallbackWithInput | undefined) ?? null;
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

  async storageOwner(storageId: string): Promise<string | null> {
    const row = await this.db.selectFrom('storages').select('owner_id').where('id', '=', storageId).executeTakeFirst();
    return row?.owner_id ?? null;
  }
}
