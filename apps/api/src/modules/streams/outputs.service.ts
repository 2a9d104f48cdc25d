import { randomBytes, randomUUID } from 'node:crypto';
import { makeStreamName, type StreamOutput, type StreamOutputCreate } from '@streamcloud/contract';
import type { Db } from '../../db/database.js';
import type { AuthContext } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { GeoLocator } from '../info/geo-locator.js';
import { type OutputRow, OutputsRepository, type SessionRow } from './outputs.repository.js';
import { toStreamOutput } from './stream-mapper.js';
import { StreamsRepository } from './streams.repository.js';
import type { StreamsService } from './streams.service.js';

export interface OutputsServiceDeps {
  db: Db;
  streams: StreamsService;
  audit: AuditRepository;
  geo: GeoLocator;
  clock: Clock;
}

/** Viewer outputs (playback endpoints) of the caller's streams. */
export class OutputsService {
  private readonly outputs: OutputsRepository;
  private readonly inputs: StreamsRepository;

  constructor(private readonly deps: OutputsServiceDeps) {
    this.outputs = new OutputsRepository(deps.db);
    this.inputs = new StreamsRepository(deps.db);
  }

  async create(auth: AuthContext, body: StreamOutputCreate): Promise<StreamOutput> {
    const input = await this.deps.streams.owned(auth, body.streamId);
    const located = body.viewer?.ipAddress ? this.deps.geo.locate(body.viewer.ipAddress) : null;
    const geo = body.viewer?.geoLocation ?? located?.geo ?? null;
    const row = await this.outputs.insert({
      id: randomUUID(),
      input_id: input.id,
      format: body.format,
      name: makeStreamName('out', randomUUID()),
      callback_uri: body.callbackUri ?? null,
      viewer_ip: body.viewer?.ipAddress || null,
      viewer_latitude: geo?.latitude ?? null,
      viewer_longitude: geo?.longitude ?? null,
      // A Private stream is private to viewers too: each output gets its own playback token.
      access_token: input.access === 'Private' ? randomBytes(24).toString('base64url') : null,
      sessions_cleared_at: null,
    });
    await this.audit(auth, 'output.create', row.id, { streamId: input.id, format: row.format });
    return this.present(row, input.node_id, []);
  }

  async list(auth: AuthContext, streamId: string, offset: number, limit: number) {
    const input = await this.deps.streams.owned(auth, streamId);
    const { rows, total } = await this.outputs.list(input.id, offset, limit);
    const sessions = await this.outputs.sessionsOf(rows.map((row) => row.id));
    const node = input.node_id ? await this.inputs.nodeHost(input.node_id) : null;
    return {
      items: rows.map((row) => toStreamOutput(row, node, sessions.get(row.id) ?? [])),
      total,
    };
  }

  /** Ends the output's viewer sessions (output.session.ended for each); the node disconnects the viewers. */
  async clearSessions(auth: AuthContext, id: string): Promise<void> {
    await this.owned(auth, id);
    const now = this.deps.clock.now();
    await this.deps.db.transaction().execute(async (trx) => {
      const db = trx as unknown as Db;
      const found = await this.inOwnStream(db, id);
      if (!found) return;
      const outputs = new OutputsRepository(db);
      const before = (await outputs.sessionsOf([id])).get(id) ?? [];
      await outputs.clearSessions(id, now);
      await this.deps.streams.webhooks.sessionsChanged(db, found.input, found.output, before, [], now);
    });
    await this.audit(auth, 'output.sessions.clear', id, {});
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    await this.owned(auth, id);
    await this.deps.db.transaction().execute(async (trx) => {
      const db = trx as unknown as Db;
      const found = await this.inOwnStream(db, id);
      if (!found) throw notFound('Output');
      await this.deps.streams.webhooks.outputDeleting(db, found.input, found.output, this.deps.clock.now());
      // Of concurrent deletes, only the one that removed the row answers 204 (the others roll back their event).
      if (!(await new OutputsRepository(db).delete(id))) throw notFound('Output');
    });
    await this.audit(auth, 'output.delete', id, {});
  }

  /** The output and its stream, read on `db`. */
  private async inOwnStream(db: Db, id: string) {
    const output = await new OutputsRepository(db).findWithOwner(id);
    const input = output ? await new StreamsRepository(db).findById(output.input_id) : null;
    return output && input ? { output, input } : null;
  }

  private async owned(auth: AuthContext, id: string) {
    const row = await this.outputs.findWithOwner(id);
    if (!row || (auth.role !== 'ADMIN' && row.owner_id !== auth.accountId)) throw notFound('Output');
    return row;
  }

  private async present(row: OutputRow, nodeId: string | null, sessions: SessionRow[]): Promise<StreamOutput> {
    return toStreamOutput(row, nodeId ? await this.inputs.nodeHost(nodeId) : null, sessions);
  }

  private audit(auth: AuthContext, action: string, targetId: string, details: Record<string, unknown>) {
    return this.deps.audit.record(
      { actorId: auth.accountId, actingAdminId: auth.actingAdminId, action, targetType: 'output', targetId, details },
      this.deps.clock.now(),
    );
  }
}
