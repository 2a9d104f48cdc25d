import type { Capture, RelayState } from '@streamcloud/contract';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { RelaysTable } from '../../db/schema.js';

export type RelayRow = Selectable<RelaysTable> & { capture: Capture; output: Record<string, unknown> };
/** A relay with what its input says about who owns it and which node serves it. */
export type OwnedRelayRow = RelayRow & { owner_id: string; node_id: string | null; input_name: string };
export type NewRelay = Omit<RelayRow, 'created_at' | 'updated_at' | 'uploaded' | 'stop_requested_at'>;
export type RelayChanges = Partial<
  Pick<RelayRow, 'callback_uri' | 'capture' | 'output' | 'key_enc' | 'state' | 'uploaded' | 'stop_requested_at'>
>;

export interface MessageRow {
  at: Date;
  level: 'info' | 'warning' | 'error';
  text: string;
}

/** Messages kept per relay. */
export const RELAY_MESSAGES_KEPT = 50;

export class RelaysRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(work: (repository: RelaysRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new RelaysRepository(trx as unknown as Db)));
  }

  private owned() {
    return this.db
      .selectFrom('relays as r')
      .innerJoin('inputs as i', 'i.id', 'r.input_id')
      .selectAll('r')
      .select(['i.owner_id', 'i.node_id', 'i.name as input_name']);
  }

  async insert(relay: NewRelay): Promise<void> {
    await this.db
      .insertInto('relays')
      .values({ ...relay, capture: JSON.stringify(relay.capture), output: JSON.stringify(relay.output) })
      .execute();
  }

  async findById(id: string): Promise<OwnedRelayRow | null> {
    return ((await this.owned().where('r.id', '=', id).executeTakeFirst()) as OwnedRelayRow | undefined) ?? null;
  }

  /** A stream's relays, autostarting first, then by creation. */
  async listByInput(inputId: string, states: readonly RelayState[] | null): Promise<OwnedRelayRow[]> {
    let query = this.owned().where('r.input_id', '=', inputId);
    if (states) query = query.where('r.state', 'in', [...states]);
    return (await query
      .orderBy('r.autostart', 'desc')
      .orderBy('r.created_at')
      .orderBy('r.id')
      .execute()) as OwnedRelayRow[];
  }

  /** What a node runs: Relaying, and autostarting ones not stopped, on its inputs. */
  async ofNode(nodeId: string): Promise<OwnedRelayRow[]> {
    return (await this.owned()
      .where('i.node_id', '=', nodeId)
      .where((eb) =>
        eb.or([
          eb('r.state', '=', 'Relaying'),
          eb.and([eb('r.autostart', '=', true), eb('r.stop_requested_at', 'is', null)]),
        ]),
      )
      .orderBy('r.created_at')
      .orderBy('r.id')
      .execute()) as OwnedRelayRow[];
  }

  async update(id: string, changes: RelayChanges, now: Date): Promise<void> {
    const { capture, output, ...rest } = changes;
    await this.db
      .updateTable('relays')
      .set({
        ...rest,
        ...(capture ? { capture: JSON.stringify(capture) } : {}),
        ...(output ? { output: JSON.stringify(output) } : {}),
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('relays').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Adds messages and keeps the latest RELAY_MESSAGES_KEPT. */
  async addMessages(relayId: string, messages: MessageRow[]): Promise<void> {
    if (messages.length === 0) return;
    await this.db
      .insertInto('relay_messages')
      .values(messages.map((message) => ({ relay_id: relayId, ...message })))
      .execute();
    await this.db
      .deleteFrom('relay_messages')
      .where('relay_id', '=', relayId)
      .where(
        'id',
        '<',
        this.db
          .selectFrom('relay_messages')
          .select('id')
          .where('relay_id', '=', relayId)
          .orderBy('id', 'desc')
          .offset(RELAY_MESSAGES_KEPT - 1)
          .limit(1),
      )
      .execute();
  }

  /** The messages of some relays, newest first. */
  async messages(relayIds: string[]): Promise<Map<string, MessageRow[]>> {
    const byRelay = new Map<string, MessageRow[]>(relayIds.map((id) => [id, []]));
    if (relayIds.length === 0) return byRelay;
    const rows = await this.db
      .selectFrom('relay_messages')
      .select(['relay_id', 'at', 'level', 'text'])
      .where('relay_id', 'in', relayIds)
      .orderBy('id', 'desc')
      .execute();
    for (const { relay_id, ...message } of rows) byRelay.get(relay_id)?.push(message);
    return byRelay;
  }
}
