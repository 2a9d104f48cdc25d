import { randomUUID } from 'node:crypto';
import {
  ACTIVE_RELAY_STATES,
  type CmafOutput,
  type NodeRelay,
  RELAY_MESSAGES,
  type Relay,
  type RelayCreate,
  type RelayState,
  type RelayStateReport,
  type RelayUpdate,
  type UdptsOutput,
} from '@streamcloud/contract';
import type { Db } from '../../db/database.js';
import type { AuthContext, NodeIdentity } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { type SecretBox, SecretBoxError } from '../../lib/secret-box.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { ReportContext } from '../nodes/node-reports.service.js';
import type { StreamsService } from '../streams/streams.service.js';
import { type MessageRow, type OwnedRelayRow, RelaysRepository } from './relays.repository.js';

export interface RelaysServiceDeps {
  db: Db;
  streams: Pick<StreamsService, 'owned'>;
  audit: AuditRepository;
  clock: Clock;
  /** Seals RTMP stream keys; `relay:<id>` is the additional data. */
  secrets: SecretBox;
}

const keyContext = (relayId: string) => `relay:${relayId}`;

/**
 * Which state a node may report from which: Relaying → Completed or Error. An autostarting relay that was
 * not stopped starts again (Relaying) after Completed or Error.
 */
export function relayTransitionAllowed(
  row: Pick<OwnedRelayRow, 'state' | 'autostart' | 'stop_requested_at'>,
  to: RelayState,
): boolean {
  if (row.state === to) return true;
  if (row.state === 'Relaying') return to === 'Completed' || to === 'Error';
  return to === 'Relaying' && row.autostart && row.stop_requested_at === null;
}

export function toRelay(row: OwnedRelayRow, messages: MessageRow[]): Relay {
  const base = {
    id: row.id,
    streamId: row.input_id,
    autostart: row.autostart,
    state: row.state,
    callbackUri: row.callback_uri,
    capture: row.capture,
    uploaded: row.uploaded,
    messages: messages.map((message) => ({ at: message.at.toISOString(), level: message.level, text: message.text })),
    stopRequested: row.stop_requested_at !== null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
  switch (row.format) {
    case 'RTMP':
      return { ...base, format: 'RTMP', output: { server: String(row.output.server), keySet: row.key_enc !== null } };
    case 'CMAF':
      return { ...base, format: 'CMAF', output: row.output as unknown as CmafOutput };
    case 'UDPTS':
      return { ...base, format: 'UDPTS', output: row.output as unknown as UdptsOutput };
  }
}

/**
 * Relays belong to their stream's account: the stream's owner and ADMIN see and change them; anyone else
 * gets 404. RTMP stream keys are sealed before they reach the repository and opened only for the node.
 */
export class RelaysService {
  private readonly relays: RelaysRepository;

  constructor(private readonly deps: RelaysServiceDeps) {
    this.relays = new RelaysRepository(deps.db);
  }

  async create(auth: AuthContext, body: RelayCreate): Promise<Relay> {
    const stream = await this.deps.streams.owned(auth, body.streamId);
    const id = randomUUID();
    const now = this.deps.clock.now();
    const { output, keyEnc } = this.splitOutput(id, body, null);
    await this.relays.transaction(async (relays) => {
      await relays.insert({
        id,
        input_id: stream.id,
        format: body.format,
        autostart: body.autostart,
        callback_uri: body.callbackUri ?? null,
        capture: body.capture,
        output,
        key_enc: keyEnc,
        state: 'Relaying',
      });
      await relays.addMessages(id, [{ at: now, level: 'info', text: `Created by ${auth.username}` }]);
    });
    await this.audit(auth, 'relay.create', id, { streamId: stream.id, format: body.format, autostart: body.autostart });
    return this.get(auth, id);
  }

  async get(auth: AuthContext, id: string): Promise<Relay> {
    return this.present(await this.owned(auth, id));
  }

  async listByStream(auth: AuthContext, streamId: string, active: boolean): Promise<Relay[]> {
    await this.deps.streams.owned(auth, streamId);
    const rows = await this.relays.listByInput(streamId, active ? ACTIVE_RELAY_STATES : null);
    const messages = await this.relays.messages(rows.map((row) => row.id));
    return rows.map((row) => toRelay(row, messages.get(row.id) ?? []));
  }

  async update(auth: AuthContext, id: string, body: RelayUpdate): Promise<Relay> {
    const row = await this.owned(auth, id);
    if (body.format !== row.format) throw badRequest(RELAY_MESSAGES.creationOnly('Format'), 'CREATION_ONLY');
    if (body.autostart !== undefined && body.autostart !== row.autostart) {
      throw badRequest(RELAY_MESSAGES.creationOnly('Autostart'), 'CREATION_ONLY');
    }
    if (body.streamId !== undefined && body.streamId !== row.input_id) {
      throw badRequest(RELAY_MESSAGES.creationOnly('Stream ID'), 'CREATION_ONLY');
    }
    const { output, keyEnc } = this.splitOutput(id, body, row.key_enc);
    await this.relays.update(
      id,
      {
        output,
        key_enc: keyEnc,
        callback_uri: body.callbackUri ?? null,
        ...(body.capture ? { capture: body.capture } : {}),
      },
      this.deps.clock.now(),
    );
    await this.audit(auth, 'relay.update', id, {
      format: row.format,
      keyChanged: body.format === 'RTMP' && body.output.key !== undefined && body.output.key !== '',
    });
    return this.get(auth, id);
  }

  /** Asks the node to stop; only in Relaying. Asking again changes nothing. */
  async stop(auth: AuthContext, id: string): Promise<Relay> {
    const row = await this.owned(auth, id);
    if (row.state !== 'Relaying') {
      throw conflict(`A relay can be stopped only while Relaying; it is ${row.state}`, 'INVALID_STATE');
    }
    if (row.stop_requested_at === null) {
      const now = this.deps.clock.now();
      await this.relays.transaction(async (relays) => {
        await relays.update(id, { stop_requested_at: now }, now);
        await relays.addMessages(id, [{ at: now, level: 'info', text: `Stopped by ${auth.username}` }]);
      });
      await this.audit(auth, 'relay.stop', id, {});
    }
    return this.get(auth, id);
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    const row = await this.owned(auth, id);
    if (row.state !== 'Completed' && row.state !== 'Error') {
      throw conflict(`A relay can be deleted only when Completed or Error; it is ${row.state}`, 'INVALID_STATE');
    }
    if (!(await this.relays.delete(id))) throw notFound('Relay');
    await this.audit(auth, 'relay.delete', id, { streamId: row.input_id });
  }

  /** Node-facing: the relays the node should run, RTMP keys in clear. */
  async ofNode(node: NodeIdentity): Promise<NodeRelay[]> {
    const rows = await this.relays.ofNode(node.id);
    return rows.map((row) => {
      const base = {
        id: row.id,
        streamId: row.input_id,
        streamName: row.input_name,
        autostart: row.autostart,
        capture: row.capture,
        state: row.state,
        stopRequested: row.stop_requested_at !== null,
        callbackUri: row.callback_uri,
      };
      if (row.format === 'RTMP') {
        const key = this.openKey(row);
        return {
          ...base,
          format: 'RTMP' as const,
          output: { server: String(row.output.server), key: key.value, keyUnreadable: key.unreadable },
        };
      }
      if (row.format === 'CMAF')
        return { ...base, format: 'CMAF' as const, output: row.output as unknown as CmafOutput };
      return { ...base, format: 'UDPTS' as const, output: row.output as unknown as UdptsOutput };
    });
  }

  /** Node-facing: applies relay-state reports inside the batch's transaction (same rules as recordings). */
  readonly applyStateReports = async (context: ReportContext, reports: RelayStateReport[]): Promise<void> => {
    const relays = new RelaysRepository(context.db);
    for (const report of reports) {
      const row = await relays.findById(report.relayId);
      if (!row || row.node_id !== context.node.id) continue;
      const state = report.state ?? row.state;
      if (!relayTransitionAllowed(row, state)) continue;
      const newRun = state === 'Relaying' && row.state !== 'Relaying';
      await relays.update(
        row.id,
        { state, uploaded: report.uploaded ?? (newRun ? 0 : row.uploaded) },
        context.receivedAt,
      );
      const at = report.at ? new Date(report.at) : context.receivedAt;
      await relays.addMessages(
        row.id,
        (report.messages ?? []).map((message) => ({ at, level: message.level, text: message.text })),
      );
    }
  };

  /** The stored output (without the key) and the sealed key: a blank or absent key keeps `current`, null removes it. */
  private splitOutput(
    id: string,
    body: RelayCreate | RelayUpdate,
    current: string | null,
  ): { output: Record<string, unknown>; keyEnc: string | null } {
    if (body.format !== 'RTMP') return { output: { ...body.output }, keyEnc: null };
    const { key, server } = body.output;
    const keyEnc =
      key === null ? null : key === undefined || key === '' ? current : this.deps.secrets.seal(key, keyContext(id));
    return { output: { server }, keyEnc };
  }

  private openKey(row: OwnedRelayRow): { value: string | null; unreadable: boolean } {
    if (row.key_enc === null) return { value: null, unreadable: false };
    try {
      return { value: this.deps.secrets.open(row.key_enc, keyContext(row.id)), unreadable: false };
    } catch (error) {
      if (error instanceof SecretBoxError) return { value: null, unreadable: true };
      throw error;
    }
  }

  private async owned(auth: AuthContext, id: string): Promise<OwnedRelayRow> {
    const row = await this.relays.findById(id);
    if (!row || (auth.role !== 'ADMIN' && row.owner_id !== auth.accountId)) throw notFound('Relay');
    return row;
  }

  private async present(row: OwnedRelayRow): Promise<Relay> {
    const messages = await this.relays.messages([row.id]);
    return toRelay(row, messages.get(row.id) ?? []);
  }

  private audit(auth: AuthContext, action: string, targetId: string, details: Record<string, unknown>) {
    return this.deps.audit.record(
      { actorId: auth.accountId, actingAdminId: auth.actingAdminId, action, targetType: 'relay', targetId, details },
      this.deps.clock.now(),
    );
  }
}
