import { VODS_LISTED } from '@streamcloud/contract';
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { VodsTable } from './vods.table.js';

export type VodRow = Selectable<VodsTable>;
/** A VOD with where it is played from: its node's control API, and the stream's output with a rewind window. */
export type VodView = VodRow & {
  node_protocol: string | null;
  node_hostname: string | null;
  node_port: number | null;
  output_id: string | null;
  output_name: string | null;
};

/** A Completed recording of a stream, as a VOD names it. */
export interface VodRecordingRow {
  id: string;
  file_name: string;
  file_format: 'MP4' | 'MKV';
  created_at: Date;
  updated_at: Date;
}

export class VodsRepository {
  constructor(private readonly db: Db) {}

  /**
   * The node's report of a VOD it keeps: a new one, or the same reported again (a node that restarted); Evicted
   * is final, and only its own node changes a VOD.
   */
  async upsertAvailable(vod: Insertable<VodsTable> & { node_id: string }): Promise<void> {
    await this.db
      .insertInto('vods')
      .values(vod)
      .onConflict((conflict) =>
        conflict
          .column('id')
          .doUpdateSet({ started_at: vod.started_at, ended_at: vod.ended_at, duration: vod.duration, size: vod.size })
          .where('vods.state', '=', 'Available')
          .where('vods.node_id', '=', vod.node_id),
      )
      .execute();
  }

  /** The VOD goes Evicted, if it is this node's and still Available. */
  async evict(id: string, nodeId: string, at: Date): Promise<void> {
    await this.db
      .updateTable('vods')
      .set({ state: 'Evicted', evicted_at: at })
      .where('id', '=', id)
      .where('node_id', '=', nodeId)
      .where('state', '=', 'Available')
      .execute();
  }

  async findById(id: string): Promise<VodView | null> {
    return (await this.views().where('vods.id', '=', id).executeTakeFirst()) ?? null;
  }

  async ofStream(streamId: string): Promise<VodView[]> {
    return this.views()
      .where('vods.input_id', '=', streamId)
      .orderBy('vods.ended_at', 'desc')
      .orderBy('vods.id')
      .limit(VODS_LISTED)
      .execute();
  }

  /**
   * The stream's Completed recordings that overlap [from, to] (made before `to`, last changed — completed — after
   * `from`), oldest first.
   */
  async completedRecordings(streamId: string, from: Date, to: Date): Promise<VodRecordingRow[]> {
    return this.db
      .selectFrom('recordings')
      .select(['id', 'file_name', 'file_format', 'created_at', 'updated_at'])
      .where('input_id', '=', streamId)
      .where('state', '=', 'Completed')
      .where('created_at', '<=', to)
      .where('updated_at', '>=', from)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  private views() {
    return (
      this.db
        .selectFrom('vods')
        .leftJoin('nodes', 'nodes.id', 'vods.node_id')
        // The stream's first Low latency HLS output with a rewind window that the VOD's node serves (the ingest node:
        // its own outputs; an edge's are another node's): its viewers' credentials play the VOD there.
        .leftJoinLateral(
          (eb) =>
            eb
              .selectFrom('outputs')
              .innerJoin('inputs', 'inputs.id', 'outputs.input_id')
              .select(['outputs.id as output_id', 'outputs.name as output_name'])
              .whereRef('outputs.input_id', '=', 'vods.input_id')
              .where((where) =>
                where.or([
                  where('outputs.node_id', '=', where.ref('vods.node_id')),
                  where.and([
                    where('outputs.node_id', 'is', null),
                    where('inputs.node_id', '=', where.ref('vods.node_id')),
                  ]),
                ]),
              )
              .where('outputs.format', '=', 'HLS')
              .where('outputs.hls_latency', '=', 'Low')
              .where('outputs.dvr_window_minutes', '>', 0)
              .orderBy('outputs.created_at')
              .orderBy('outputs.id')
              .limit(1)
              .as('dvr_output'),
          (join) => join.onTrue(),
        )
        .selectAll('vods')
        .select([
          'nodes.protocol as node_protocol',
          'nodes.hostname as node_hostname',
          'nodes.port as node_port',
          'dvr_output.output_id',
          'dvr_output.output_name',
        ])
    );
  }
}
