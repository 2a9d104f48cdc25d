import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { StoragesTable } from '../../db/schema.js';

export type StorageRow = Omit<StoragesTable, 'created_at' | 'updated_at'> & {
  created_at: Date;
  updated_at: Date;
  owner_username: string;
};
export type NewStorage = Omit<StoragesTable, 'created_at' | 'updated_at'>;
export type StorageChanges = Omit<NewStorage, 'id' | 'owner_id'>;

/** foreign_key_violation (NO ACTION) and restrict_violation (ON DELETE RESTRICT). */
const STILL_REFERENCED = new Set(['23503', '23001']);

/** Another table still references the storage (e.g. a recording, once that table references storages). */
export class StorageReferencedError extends Error {}

export class StoragesRepository {
  constructor(private readonly db: Db) {}

  private selectRows() {
    return this.db
      .selectFrom('storages')
      .innerJoin('accounts', 'accounts.id', 'storages.owner_id')
      .selectAll('storages')
      .select('accounts.username as owner_username');
  }

  /** Every storage, or one owner's, by name (case-insensitive) then id. */
  list(ownerId?: string): Promise<StorageRow[]> {
    let query = this.selectRows();
    if (ownerId !== undefined) query = query.where('storages.owner_id', '=', ownerId);
    return query.orderBy(sql`lower(storages.name)`).orderBy('storages.id').execute();
  }

  async findById(id: string): Promise<StorageRow | null> {
    return (await this.selectRows().where('storages.id', '=', id).executeTakeFirst()) ?? null;
  }

  async insert(storage: NewStorage): Promise<StorageRow> {
    await this.db.insertInto('storages').values(storage).execute();
    return (await this.findById(storage.id)) as StorageRow;
  }

  async update(id: string, changes: StorageChanges, now: Date): Promise<StorageRow | null> {
    const result = await this.db
      .updateTable('storages')
      .set({ ...changes, updated_at: now })
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return null;
    return this.findById(id);
  }

  async delete(id: string): Promise<boolean> {
    try {
      const result = await this.db.deleteFrom('storages').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    } catch (error) {
      if (STILL_REFERENCED.has((error as { code?: string }).code ?? '')) throw new StorageReferencedError();
      throw error;
    }
  }
}
