import type { Scte35Mode, TranscodeTrack } from '@streamcloud/contract';
import type { Db } from '../../db/database.js';
import type { InputsTable } from '../streams/streams.table.js';

/**
 * A stream's transcode configuration as stored in its `output` column (the transcode module's column of
 * the streams table): the overlay's image lives in input_overlays, only its offsets here.
 */
export interface StoredTranscodeConfig {
  version: 2;
  passthrough: boolean;
  scte35?: { mode: Scte35Mode };
  /** Legacy configurations may carry the ad-marker flag instead of a mode. */
  adMarker?: boolean;
  epochTimeEncoder?: { enabled: boolean };
  overlay?: { offsetX: number; offsetY: number } | null;
  tracks: TranscodeTrack[];
}

/** What the transcode rules read of a stream with its configuration. */
export interface TranscodedStream {
  name: string;
  status: InputsTable['status'];
  config: StoredTranscodeConfig;
}

export interface OverlayRow {
  content_type: 'image/png' | 'image/jpeg';
  data: Uint8Array;
}

/** Transcode configurations: the `output` column of streams and the overlay images (input_overlays). */
export class TranscodeRepository {
  constructor(private readonly db: Db) {}

  async stream(streamId: string): Promise<TranscodedStream | null> {
    const row = await this.db
      .selectFrom('inputs')
      .select(['name', 'status', 'output'])
      .where('id', '=', streamId)
      .executeTakeFirst();
    return row ? { name: row.name, status: row.status, config: row.output as unknown as StoredTranscodeConfig } : null;
  }

  async overlay(streamId: string): Promise<OverlayRow | null> {
    return (
      (await this.db
        .selectFrom('input_overlays')
        .select(['content_type', 'data'])
        .where('input_id', '=', streamId)
        .executeTakeFirst()) ?? null
    );
  }

  async saveConfig(streamId: string, config: StoredTranscodeConfig, now: Date): Promise<void> {
    await this.db
      .updateTable('inputs')
      .set({ output: JSON.stringify(config), updated_at: now })
      .where('id', '=', streamId)
      .execute();
  }

  async saveOverlay(streamId: string, overlay: OverlayRow, now: Date): Promise<void> {
    await this.db
      .insertInto('input_overlays')
      .values({ input_id: streamId, content_type: overlay.content_type, data: overlay.data, updated_at: now })
      .onConflict((oc) =>
        oc.column('input_id').doUpdateSet({ content_type: overlay.content_type, data: overlay.data, updated_at: now }),
      )
      .execute();
  }

  async deleteOverlay(streamId: string): Promise<void> {
    await this.db.deleteFrom('input_overlays').where('input_id', '=', streamId).execute();
  }
}
