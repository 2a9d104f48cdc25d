import type { SnapshotDirection, SnapshotSettings } from '@streamcloud/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

export interface SnapshotImageRow {
  content_type: 'image/png' | 'image/jpeg';
  data: Uint8Array;
  taken_at: Date;
}

export class SnapshotsRepository {
  constructor(private readonly db: Db) {}

  async settings(streamId: string, direction: SnapshotDirection): Promise<SnapshotSettings | null> {
    return (
      (await this.db
        .selectFrom('snapshot_settings')
        .select(['format', 'quality', 'interval'])
        .where('input_id', '=', streamId)
        .where('direction', '=', direction)
        .executeTakeFirst()) ?? null
    );
  }

  async saveSettings(
    streamId: string,
    direction: SnapshotDirection,
    settings: SnapshotSettings,
    now: Date,
  ): Promise<void> {
    await this.db
      .insertInto('snapshot_settings')
      .values({ input_id: streamId, direction, ...settings, updated_at: now })
      .onConflict((oc) => oc.columns(['input_id', 'direction']).doUpdateSet({ ...settings, updated_at: now }))
      .execute();
  }

  /** Turns a direction off: its settings and its latest image go. */
  async deleteSettings(streamId: string, direction: SnapshotDirection): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('snapshot_images')
        .where('input_id', '=', streamId)
        .where('direction', '=', direction)
        .execute();
      await trx
        .deleteFrom('snapshot_settings')
        .where('input_id', '=', streamId)
        .where('direction', '=', direction)
        .execute();
    });
  }

  async image(streamId: string, direction: SnapshotDirection): Promise<SnapshotImageRow | null> {
    return (
      (await this.db
        .selectFrom('snapshot_images')
        .select(['content_type', 'data', 'taken_at'])
        .where('input_id', '=', streamId)
        .where('direction', '=', direction)
        .executeTakeFirst()) ?? null
    );
  }

  /**
   * The direction whose image stands for the stream (the outgoing picture, what viewers see, else the
   * incoming), and when it was taken; null while there is none. Reads no image bytes.
   */
  async posterOf(streamId: string): Promise<{ direction: SnapshotDirection; takenAt: Date } | null> {
    const rows = await this.db
      .selectFrom('snapshot_images')
      .select(['direction', 'taken_at'])
      .where('input_id', '=', streamId)
      .execute();
    const row = rows.find((image) => image.direction === 'outgoing') ?? rows[0];
    return row ? { direction: row.direction as SnapshotDirection, takenAt: row.taken_at } : null;
  }

  /** Keeps the latest image only: an image taken before the stored one changes nothing. */
  async saveImage(
    streamId: string,
    direction: SnapshotDirection,
    image: SnapshotImageRow,
    receivedAt: Date,
  ): Promise<void> {
    await this.db
      .insertInto('snapshot_images')
      .values({ input_id: streamId, direction, ...image, received_at: receivedAt })
      .onConflict((oc) =>
        oc
          .columns(['input_id', 'direction'])
          .doUpdateSet({
            content_type: image.content_type,
            data: image.data,
            taken_at: image.taken_at,
            received_at: receivedAt,
          })
          .where(sql<boolean>`snapshot_images.taken_at <= excluded.taken_at`),
      )
      .execute();
  }
}
