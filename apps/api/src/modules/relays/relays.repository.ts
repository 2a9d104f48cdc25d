import { ACTIVE_RELAY_STATES, type Capture } from '@streamcloud/contract';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { RelaysTable } from '../../db/schema.js';
import { type Owned, StreamJobsRepository } from '../stream-jobs/stream-jobs.repository.js';

export type RelayRow = Selectable<RelaysTable> & { capture: Capture; output: Record<string, unknown> };
export type OwnedRelayRow = Owned<RelayRow>;
export type NewRelay = Omit<
  RelayRow,
  'created_at' | 'updated_at' | 'uploaded' | 'stop_requested_at' | 'runner_id' | 'runner_name' | 'runner_lost_at'
>;
export type RelayChanges = Partial<
  Pick<RelayRow, 'callback_uri' | 'capture' | 'output' | 'key_enc' | 'state' | 'uploaded' | 'stop_requested_at'>
>;

export class RelaysRepository extends StreamJobsRepository<RelayRow, NewRelay, RelayChanges> {
  constructor(db: Db) {
    super(db, {
      jobs: 'relays',
      messages: 'relay_messages',
      messageKey: 'relay_id',
      json: ['capture', 'output'],
      active: ACTIVE_RELAY_STATES,
      // A relay's run ends with its node: nothing is left to finish when the node comes back.
      recoverable: false,
    });
  }
}
