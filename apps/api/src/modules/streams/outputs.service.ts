import { randomBytes, randomUUID } from 'node:crypto';
import { makeStreamName, type StreamOutput, type StreamOutputCreate } from '@streamcloud/contract';
import type { Db } from '../../db/database.js';
import type { AuthContext } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { GeoLocator } from '../info/geo-locator.js';
import { playbackConnection } from './connections.js';
import { type OutputRow, OutputsRepository, type SessionRow } from './outputs.repository.js';
import { mediaHostOf } from './stream-mapper.js';
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
      items: rows.map((row) => this.toOutput(row, node, sessions.get(row.id) ?? [])),
      total,
    };
  }

  async clearSessions(auth: AuthContext, id: string): Promise<void> {
    await this.owned(auth, id);
    await this.outputs.clearSessions(id, this.deps.clock.now());
    await this.audit(auth, 'output.sessions.clear', id, {});
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    await this.owned(auth, id);
    await this.outputs.delete(id);
    await this.audit(auth, 'output.delete', id, {});
  }

  private async owned(auth: AuthContext, id: string) {
    const row = await this.outputs.findWithOwner(id);
    if (!row || (auth.role !== 'ADMIN' && row.owner_id !== auth.accountId)) throw notFound('Output');
    return row;
  }

  private async present(row: OutputRow, nodeId: string | null, sessions: SessionRow[]): Promise<StreamOutput> {
    return this.toOutput(row, nodeId ? await this.inputs.nodeHost(nodeId) : null, sessions);
  }

  private toOutput(
    row: OutputRow,
    node: Awaited<ReturnType<StreamsRepository['nodeHost']>>,
    sessions: SessionRow[],
  ): StreamOutput {
    const format = row.format as StreamOutput['format'];
    return {
      id: row.id,
      streamId: row.input_id,
      format,
      name: row.name,
      connection: node ? playbackConnection(format, mediaHostOf(node), row.name) : null,
      viewer: {
        ipAddress: row.viewer_ip,
        geoLocation:
          row.viewer_latitude !== null && row.viewer_longitude !== null
            ? { latitude: row.viewer_latitude, longitude: row.viewer_longitude }
            : null,
        accessToken: row.access_token,
      },
      callbackUri: row.callback_uri,
      sessions: sessions.map((session) => ({
        id: session.session_id,
        ipAddress: session.ip_address,
        startedAt: session.started_at.toISOString(),
        bytes: session.bytes,
      })),
      createdAt: row.created_at.toISOString(),
    };
  }

  private audit(auth: AuthContext, action: string, targetId: string, details: Record<string, unknown>) {
    return this.deps.audit.record(
      { actorId: auth.accountId, actingAdminId: auth.actingAdminId, action, targetType: 'output', targetId, details },
      this.deps.clock.now(),
    );
  }
}
