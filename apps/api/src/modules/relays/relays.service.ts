import { randomUUID } from 'node:crypto';
import {
  type CmafOutput,
  type NodeRelay,
  RELAY_MESSAGES,
  type Relay,
  type RelayCreate,
  type RelayStateReport,
  type RelayUpdate,
  type UdptsOutput,
} from '@streamcloud/contract';
import type { AuthContext, NodeIdentity } from '../../lib/auth-context.js';
import { badRequest } from '../../lib/errors.js';
import { type SecretBox, SecretBoxError } from '../../lib/secret-box.js';
import type { MessageRow, StreamJobKind, StreamJobsScope, StreamJobsServiceDeps } from '../stream-jobs/index.js';
import { nodeStreamJobView, StreamJobsService, streamJobView } from '../stream-jobs/index.js';
import type { NewRelay, OwnedRelayRow, RelayChanges, RelayRow, RelaysRepository } from './relays.repository.js';

export interface RelaysServiceDeps extends StreamJobsServiceDeps<'relays'> {
  /** Seals RTMP stream keys; `relay:<id>` is the additional data. */
  secrets: SecretBox;
}

const keyContext = (relayId: string) => `relay:${relayId}`;

export function toRelay(row: OwnedRelayRow, messages: MessageRow[]): Relay {
  const base = streamJobView(row, messages);
  switch (row.format) {
    case 'RTMP':
      return { ...base, format: 'RTMP', output: { server: String(row.output.server), keySet: row.key_enc !== null } };
    case 'CMAF':
      return { ...base, format: 'CMAF', output: row.output as unknown as CmafOutput };
    case 'UDPTS':
      return { ...base, format: 'UDPTS', output: row.output as unknown as UdptsOutput };
  }
}

const RELAY: StreamJobKind<RelayRow, Relay, RelayStateReport> = {
  noun: 'relay',
  entity: 'Relay',
  running: 'Relaying',
  next: { Relaying: ['Completed', 'Error'] },
  counters: ['uploaded'],
  reportedJob: (report) => report.relayId,
  present: toRelay,
};

/**
 * Relays are stream jobs (recordings/stream-jobs.service.ts) that send the stream to an external
 * destination. RTMP stream keys are sealed before they reach the repository and opened only for the node.
 */
export class RelaysService extends StreamJobsService<
  RelayRow,
  NewRelay,
  RelayChanges,
  Relay,
  RelayStateReport,
  'relays'
> {
  constructor(private readonly deps: RelaysServiceDeps) {
    super(RELAY, deps);
  }

  protected jobsOf(uow: StreamJobsScope<'relays'>): RelaysRepository {
    return uow.relays;
  }

  async create(auth: AuthContext, body: RelayCreate): Promise<Relay> {
    await this.deps.uow.access.require(auth, 'stream', body.streamId);
    const id = randomUUID();
    const { output, keyEnc } = this.splitOutput(id, body, null);
    return this.add(
      auth,
      {
        id,
        input_id: body.streamId,
        format: body.format,
        autostart: body.autostart,
        callback_uri: body.callbackUri ?? null,
        capture: body.capture,
        output,
        key_enc: keyEnc,
        state: 'Relaying',
      },
      { streamId: body.streamId, format: body.format, autostart: body.autostart },
    );
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
    await this.jobs.update(
      id,
      {
        output,
        key_enc: keyEnc,
        callback_uri: body.callbackUri ?? null,
        ...(body.capture ? { capture: body.capture } : {}),
      },
      this.deps.clock.now(),
    );
    await this.audit(auth, 'update', id, {
      format: row.format,
      keyChanged: body.format === 'RTMP' && body.output.key !== undefined && body.output.key !== '',
    });
    return this.get(auth, id);
  }

  /** Node-facing: the relays the node should run, RTMP keys in clear. */
  async ofNode(node: NodeIdentity): Promise<NodeRelay[]> {
    const rows = await this.jobs.ofNode(node.id);
    return rows.map((row) => {
      const base = nodeStreamJobView(row);
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
}
