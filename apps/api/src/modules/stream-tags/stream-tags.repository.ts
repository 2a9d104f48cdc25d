import type { Db } from '../../db/database.js';
import './stream-tags.table.js';

/** Tags on streams: a stream's, and the streams with a tag. */
export class StreamTagsRepository {
  constructor(private readonly db: Db) {}

  /** A stream's tags, by name. */
  async list(streamId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('stream_tags')
      .select('tag')
      .where('input_id', '=', streamId)
      .orderBy('tag')
      .execute();
    return rows.map((row) => row.tag);
  }

  /**
   * Inside a transaction: a stream's tags, read with the stream's row locked against another tag write until the
   * transaction ends (so concurrent adds cannot both pass the limit); null when the stream is gone. The lock is
   * FOR NO KEY UPDATE: rows referring to the stream may still be written meanwhile.
   */
  async lockAndList(streamId: string): Promise<string[] | null> {
    const stream = await this.db
      .selectFrom('inputs')
      .select('id')
      .where('id', '=', streamId)
      .forNoKeyUpdate()
      .executeTakeFirst();
    return stream ? this.list(streamId) : null;
  }

  /** Adds a tag; false when the stream has it already (one of concurrent adds inserts). */
  async insert(row: { input_id: string; owner_id: string; tag: string; created_at: Date }): Promise<boolean> {
    const inserted = await this.db
      .insertInto('stream_tags')
      .values(row)
      .onConflict((conflict) => conflict.columns(['input_id', 'tag']).doNothing())
      .returning('tag')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /** Removes a tag; false when the stream does not have it. */
  async delete(streamId: string, tag: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('stream_tags')
      .where('input_id', '=', streamId)
      .where('tag', '=', tag)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** The streams with a tag, one account's (every account's with null), in the order they were tagged; a page. */
  async streamsWith(tag: string, ownerId: string | null, page: { offset: number; limit: number }): Promise<string[]> {
    let query = this.db.selectFrom('stream_tags').select('input_id').where('tag', '=', tag);
    if (ownerId !== null) query = query.where('owner_id', '=', ownerId);
    const rows = await query.orderBy('created_at').orderBy('input_id').offset(page.offset).limit(page.limit).execute();
    return rows.map((row) => row.input_id);
  }
}
