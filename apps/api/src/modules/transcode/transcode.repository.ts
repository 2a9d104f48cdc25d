import type { Scte35Mode, TranscodeTrack } from '@streamcloud/contract';
import type { Db } from '../../db/database.js';

/** inputs.output as stored: the overlay's image lives in input_overlays, only its offsets here. */
export interface StoredOutput {
  version: 2;
  passthrough: boolean;
  scte35?: { mode: Scte35Mode };
  /** Legacy configurations may carry the ad-marker flag instead of a mode. */
  adMarker?: boolean;
  epochTimeEncoder?: { enabled: boolean };
  overlay?: { offsetX: number; offsetY: number } | null;
  tracks: TranscodeTrack[];
}

export interface OverlayRow {
  content_type: 'image/png' | 'image/jpeg';
  data: Uint8Array;
}

export class TranscodeRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(work: (repository: TranscodeRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new TranscodeRepository(trx as unknown as Db)));
  }

  async overlay(inputId: string): Promise<OverlayRow | null> {
    return (
      (await this.db
        .selectFrom('input_overlays')
        .select(['content_type', 'data'])
        .where('input_id', '=', inputId)
        .executeTakeFirst()) ?? null
    );
  }

  async saveOutput(inputId: string, output: StoredOutput, now: Date): Promise<void> {
    await this.db
      .updateTable('inputs')
      .set({ output: JSON.stringify(output), updated_at: now })
      .where('id', '=', inputId)
      .execute();
  }

  async saveOverlay(inputId: string, overlay: OverlayRow, now: Date): Promise<void> {
    await this.db
      .insertInto('input_overlays')
      .values({ input_id: inputId, content_type: overlay.content_type, data: overlay.data, updated_at: now })
      .onConflict((oc) =>
        oc.column('input_id').doUpdateSet({ content_type: overlay.content_type, data: overlay.data, updated_at: now }),
      )
      .execute();
  }

  async deleteOverlay(inputId: string): Promise<void> {
    await this.db.deleteFrom('input_overlays').where('input_id', '=', inputId).execute();
  }
}
