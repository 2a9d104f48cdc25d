import type { LadderRendition, StreamStatus } from '@streamcloud/contract';
import type { Db } from '../../db/database.js';
import type { OutputRow, SessionRow } from './outputs.repository.js';
import { addStatusMessages } from './stream-reads.repository.js';
import type { StatusMessageRow, StreamRow, TrackRow } from './streams.table.js';

/** What one report sets on its stream's row: its status (and the time), its ladder, or both. */
export interface StateChange {
  status?: StreamStatus;
  renditions?: LadderRendition[] | null;
}

/** A stream's tracks of one source, as a report replaces them. */
export interface TracksOf {
  streamId: string;
  source: 'incoming' | 'outgoing';
  tracks: TrackRow[];
}

/**
 * The node-facing writes of many streams at once (issue 39, admission at scale): a wave of streams going live
 * reaches the control plane as batches of reports, and each statement costs about as much on PGlite (parsing,
 * planning) whether it touches one row or a hundred, so a batch's reads and writes are made per batch, not per
 * report. Every statement goes through the query builder, so the response cache sees what it writes.
 */
export class StreamStatesRepository {
  constructor(private readonly db: Db) {}

  /** The streams of these ids (those that exist), by id. */
  async findByIds(ids: readonly string[]): Promise<Map<string, StreamRow>> {
    if (ids.length === 0) return new Map();
    const rows = (await this.db.selectFrom('inputs').selectAll().where('id', 'in', ids).execute()) as StreamRow[];
    return new Map(rows.map((row) => [row.id, row]));
  }

  /**
   * Applies each stream's change; streams with the same change are set by one statement (a wave of pushes
   * starting: one for all its Ingestion reports). A status change also sets `updated_at` to `now`.
   */
  async setStates(changes: ReadonlyMap<string, StateChange>, now: Date): Promise<void> {
    const groups = new Map<string, { change: StateChange; ids: string[] }>();
    for (const [id, change] of changes) {
      const key = JSON.stringify([change.status ?? null, change.renditions === undefined ? '-' : change.renditions]);
      const group = groups.get(key) ?? { change, ids: [] };
      group.ids.push(id);
      groups.set(key, group);
    }
    for (const { change, ids } of groups.values()) {
      const { status, renditions } = change;
      await this.db
        .updateTable('inputs')
        .set({
          ...(status !== undefined ? { status, updated_at: now } : {}),
          ...(renditions !== undefined ? { renditions: renditions === null ? null : JSON.stringify(renditions) } : {}),
        })
        .where('id', 'in', ids)
        .execute();
    }
  }

  /** Adds messages (in this order) and keeps each of their streams' STATUS_MESSAGES_KEPT newest. */
  addMessages(messages: ReadonlyArray<StatusMessageRow & { input_id: string }>): Promise<void> {
    return addStatusMessages(this.db, messages);
  }

  /** Replaces the tracks of each stream and source listed (one statement per source, one for the new rows). */
  async replaceTracks(list: readonly TracksOf[]): Promise<void> {
    for (const source of ['incoming', 'outgoing'] as const) {
      const ids = list.filter((entry) => entry.source === source).map((entry) => entry.streamId);
      if (ids.length > 0)
        await this.db.deleteFrom('input_tracks').where('source', '=', source).where('input_id', 'in', ids).execute();
    }
    const rows = list.flatMap(({ streamId, source, tracks }) =>
      tracks.map((track) => ({ ...track, input_id: streamId, source })),
    );
    if (rows.length > 0) await this.db.insertInto('input_tracks').values(rows).execute();
  }

  /** The outputs of these ids (those that exist), by id. */
  async outputsByIds(ids: readonly string[]): Promise<Map<string, OutputRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('outputs').selectAll().where('id', 'in', ids).execute();
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Replaces the viewer sessions of each output listed (one statement for the old rows, one for the new). */
  async replaceSessions(sessions: ReadonlyMap<string, SessionRow[]>): Promise<void> {
    if (sessions.size === 0) return;
    await this.db
      .deleteFrom('output_sessions')
      .where('output_id', 'in', [...sessions.keys()])
      .execute();
    const rows = [...sessions].flatMap(([outputId, list]) =>
      list.map((session) => ({ ...session, output_id: outputId })),
    );
    if (rows.length > 0) await this.db.insertInto('output_sessions').values(rows).execute();
  }
}
