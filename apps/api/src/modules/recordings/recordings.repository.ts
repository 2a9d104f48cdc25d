import { ACTIVE_RECORDING_STATES, type Capture } from '@streamcloud/contract';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { RecordingsTable } from '../../db/schema.js';
import { type Owned, StreamJobsRepository } from '../stream-jobs/stream-jobs.repository.js';

/** The storage a recording was to use was deleted meanwhile. */
export class StorageGoneError extends Error {}

export type RecordingRow = Selectable<RecordingsTable> & { capture: Capture };
export type OwnedRecordingRow = Owned<RecordingRow>;
export type NewRecording = Omit<
  RecordingRow,
  | 'created_at'
  | 'updated_at'
  | 'duration'
  | 'length'
  | 'uploaded'
  | 'stop_requested_at'
  | 'runner_id'
  | 'runner_name'
  | 'runner_lost_at'
  | 'object_key'
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
    | 'object_key'
  >
>;

export class RecordingsRepository extends StreamJobsRepository<RecordingRow, NewRecording, RecordingChanges> {
  constructor(db: Db) {
    super(db, {
      jobs: 'recordings',
      messages: 'recording_messages',
      messageKey: 'recording_id',
      json: ['capture'],
      active: ACTIVE_RECORDING_STATES,
      // The file of a run is on its node's disk: a node that comes back uploads it.
      recoverable: true,
    });
  }

  /** Every recording (or one owner's; the active ones only, or all), autostarting first, one page and the total. */
  async list(ownerId: string | null, activeOnly: boolean, offset: number, limit: number) {
    let rows = this.owned();
    let count = this.db.selectFrom('recordings as r').innerJoin('inputs as i', 'i.id', 'r.input_id');
    if (ownerId) {
      rows = rows.where('i.owner_id', '=', ownerId);
      count = count.where('i.owner_id', '=', ownerId);
    }
    if (activeOnly) {
      rows = rows.where('r.state', 'in', ACTIVE_RECORDING_STATES);
      count = count.where('r.state', 'in', ACTIVE_RECORDING_STATES);
    }
    const [items, total] = await Promise.all([
      rows.orderBy('r.autostart', 'desc').orderBy('r.created_at').orderBy('r.id').offset(offset).limit(limit).execute(),
      count.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
    ]);
    return { rows: items as OwnedRecordingRow[], total: Number(total.count) };
  }

  /**
   * Inside a transaction: holds the recording's storage until it ends, so a concurrent delete of the
   * storage waits and then finds the recording (409), or — deleted first — is seen here (StorageGoneError),
   * instead of the deferred foreign key failing at commit.
   */
  async lockStorage(storageId: string): Promise<void> {
    const row = await this.db
      .selectFrom('storages')
      .select('id')
      .where('id', '=', storageId)
      .forKeyShare()
      .executeTakeFirst();
    if (!row) throw new StorageGoneError();
  }

  override async insert(job: NewRecording): Promise<void> {
    await this.lockStorage(job.storage_id);
    await super.insert(job);
  }

  async countByStorage(storageId: string): Promise<number> {
    const row = await this.db
      .selectFrom('recordings')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('storage_id', '=', storageId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }
}
