import type { Capture, RecordingState } from '@streamcloud/contract';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { RecordingsTable } from '../../db/schema.js';

export type RecordingRow = Selectable<RecordingsTable> & { capture: Capture };
/** A recording with what its input says about who owns it and which node serves it. */
export type OwnedRecordingRow = RecordingRow & { owner_id: string; node_id: string | null; input_name: string };
export type NewRecording = Omit<
  RecordingRow,
  'created_at' | 'updated_at' | 'duration' | 'length' | 'uploaded' | 'stop_requested_at'
>;
export type RecordingChanges = Partial<
  Pick<
    RecordingRow,
    | 'file_name'
    | 'storage_id'
    | 'callback_uri'
    | 'capture'
    | 'state'
    | 'duration'
    | 'length'
    | 'uploaded'
    | 'stop_requested_at'
  >
>;

export interface MessageRow {
  at: Date;
  level: 'info' | 'warning' | 'error';
  text: string;
}

/** Messages kept per recording: the dashboard shows the recent ones. */
export const RECORDING_MESSAGES_KEPT = 50;

export class RecordingsRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(work: (repository: RecordingsRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new RecordingsRepository(trx as unknown as Db)));
  }

  private owned() {
    return this.db
      .selectFrom('recordings as r')
      .innerJoin('inputs as i', 'i.id', 'r.input_id')
      .selectAll('r')
      .select(['i.owner_id', 'i.node_id', 'i.name as input_name']);
  }

  async insert(recording: NewRecording): Promise<void> {
    await this.db
      .insertInto('recordings')
      .values({ ...recording, capture: JSON.stringify(recording.capture) })
      .execute();
  }

  async findById(id: string): Promise<OwnedRecordingRow | null> {
    return ((await this.owned().where('r.id', '=', id).executeTakeFirst()) as OwnedRecordingRow | undefined) ?? null;
  }

  /** A stream's recordings, autostarting first, then by creation. */
  async listByInput(inputId: string, states: readonly RecordingState[] | null): Promise<OwnedRecordingRow[]> {
    let query = this.owned().where('r.input_id', '=', inputId);
    if (states) query = query.where('r.state', 'in', [...states]);
    return (await query
      .orderBy('r.autostart', 'desc')
      .orderBy('r.created_at')
      .orderBy('r.id')
      .execute()) as OwnedRecordingRow[];
  }

  /** Every recording (or one owner's), autostarting first, one page and the total. */
  async list(ownerId: string | null, states: readonly RecordingState[] | null, offset: number, limit: number) {
    let rows = this.owned();
    let count = this.db.selectFrom('recordings as r').innerJoin('inputs as i', 'i.id', 'r.input_id');
    if (ownerId) {
      rows = rows.where('i.owner_id', '=', ownerId);
      count = count.where('i.owner_id', '=', ownerId);
    }
    if (states) {
      rows = rows.where('r.state', 'in', [...states]);
      count = count.where('r.state', 'in', [...states]);
    }
    const [items, total] = await Promise.all([
      rows.orderBy('r.autostart', 'desc').orderBy('r.created_at').orderBy('r.id').offset(offset).limit(limit).execute(),
      count.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
    ]);
    return { rows: items as OwnedRecordingRow[], total: Number(total.count) };
  }

  /** What a node runs or finishes: Recording or Uploading, and autostarting ones not stopped, on its inputs. */
  async ofNode(nodeId: string): Promise<OwnedRecordingRow[]> {
    return (await this.owned()
      .where('i.node_id', '=', nodeId)
      .where((eb) =>
        eb.or([
          eb('r.state', 'in', ['Recording', 'Uploading']),
          eb.and([eb('r.autostart', '=', true), eb('r.stop_requested_at', 'is', null)]),
        ]),
      )
      .orderBy('r.created_at')
      .orderBy('r.id')
      .execute()) as OwnedRecordingRow[];
  }

  async update(id: string, changes: RecordingChanges, now: Date): Promise<void> {
    const { capture, ...rest } = changes;
    await this.db
      .updateTable('recordings')
      .set({ ...rest, ...(capture ? { capture: JSON.stringify(capture) } : {}), updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('recordings').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async countByStorage(storageId: string): Promise<number> {
    const row = await this.db
      .selectFrom('recordings')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('storage_id', '=', storageId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Adds messages and keeps the latest RECORDING_MESSAGES_KEPT. */
  async addMessages(recordingId: string, messages: MessageRow[]): Promise<void> {
    if (messages.length === 0) return;
    await this.db
      .insertInto('recording_messages')
      .values(messages.map((message) => ({ recording_id: recordingId, ...message })))
      .execute();
    await this.db
      .deleteFrom('recording_messages')
      .where('recording_id', '=', recordingId)
      .where(
        'id',
        '<',
        this.db
          .selectFrom('recording_messages')
          .select('id')
          .where('recording_id', '=', recordingId)
          .orderBy('id', 'desc')
          .offset(RECORDING_MESSAGES_KEPT - 1)
          .limit(1),
      )
      .execute();
  }

  /** The messages of some recordings, newest first. */
  async messages(recordingIds: string[]): Promise<Map<string, MessageRow[]>> {
    const byRecording = new Map<string, MessageRow[]>(recordingIds.map((id) => [id, []]));
    if (recordingIds.length === 0) return byRecording;
    const rows = await this.db
      .selectFrom('recording_messages')
      .select(['recording_id', 'at', 'level', 'text'])
      .where('recording_id', 'in', recordingIds)
      .orderBy('id', 'desc')
      .execute();
    for (const { recording_id, ...message } of rows) byRecording.get(recording_id)?.push(message);
    return byRecording;
  }
}
