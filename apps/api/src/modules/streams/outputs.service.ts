import { randomBytes, randomUUID } from 'node:crypto';
import { makeStreamName, type StreamOutput, type StreamOutputCreate } from '@streamcloud/contract';
import type { AuthContext } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import { AuditTrail } from '../audit/audit-trail.js';
import type { GeoLocator } from '../info/geo-locator.js';
import { chooseOutputNode } from './output-placement.js';
import type { OutputRow } from './outputs.repository.js';
import { servingNodeIdOf, toStreamOutput } from './stream-mapper.js';
import type { StreamWebhooks } from './stream-webhooks.js';
import type { StreamsScope } from './streams.service.js';

export interface OutputsServiceDeps {
  uow: StreamsScope;
  geo: GeoLocator;
  clock: Clock;
  /** The streams module's webhook events: output sessions and deletions are sent through it. */
  webhooks: Pick<StreamWebhooks, 'sessionsChanged' | 'outputDeleting'>;
}

/** Viewer outputs (playback endpoints) of the caller's streams. */
export class OutputsService {
  private readonly audit: AuditTrail;

  constructor(private readonly deps: OutputsServiceDeps) {
    this.audit = new AuditTrail(deps.uow.audit, deps.clock, 'output');
  }

  async create(auth: AuthContext, body: StreamOutputCreate): Promise<StreamOutput> {
    const { access, streams, outputs } = this.deps.uow;
    await access.require(auth, 'stream', body.streamId);
    const stream = await streams.findById(body.streamId);
    if (!stream) throw notFound('Stream');
    const located = body.viewer?.ipAddress ? this.deps.geo.locate(body.viewer.ipAddress) : null;
    const geo = body.viewer?.geoLocation ?? located?.geo ?? null;
    const edge = chooseOutputNode(await streams.candidateNodes(), stream.owner_id, stream.node_id, {
      geo,
      region: located?.region ?? null,
    });
    const row = await outputs.insert({
      id: randomUUID(),
      input_id: stream.id,
      format: body.format,
      name: makeStreamName('out', randomUUID()),
      callback_uri: body.callbackUri ?? null,
      viewer_ip: body.viewer?.ipAddress || null,
      viewer_latitude: geo?.latitude ?? null,
      viewer_longitude: geo?.longitude ?? null,
      // A Private stream is private to viewers too: each output gets its own playback token.
      access_token: stream.access === 'Private' ? randomBytes(24).toString('base64url') : null,
      sessions_cleared_at: null,
      preview_sessions: 0,
      node_id: edge?.id ?? null,
    });
    await this.audit.record(auth, 'output.create', row.id, { streamId: stream.id, format: row.format });
    const nodeId = servingNodeIdOf(row, stream.node_id);
    return toStreamOutput(row, nodeId ? await streams.nodeHost(nodeId) : null, []);
  }

  async list(auth: AuthContext, streamId: string, offset: number, limit: number) {
    const { access, streams, outputs } = this.deps.uow;
    const { nodeId } = await access.require(auth, 'stream', streamId);
    const { rows, total } = await outputs.list(streamId, offset, limit);
    const sessions = await outputs.sessionsOf(rows.map((row) => row.id));
    const hostIds = [...new Set(rows.map((row) => servingNodeIdOf(row, nodeId)))];
    const hosts = new Map(
      await Promise.all(hostIds.map(async (id) => [id, id ? await streams.nodeHost(id) : null] as const)),
    );
    return {
      items: rows.map((row) =>
        toStreamOutput(row, hosts.get(servingNodeIdOf(row, nodeId)) ?? null, sessions.get(row.id) ?? []),
      ),
      total,
    };
  }

  /** Ends the output's viewer sessions (output.session.ended for each); the node disconnects the viewers. */
  async clearSessions(auth: AuthContext, id: string): Promise<void> {
    await this.deps.uow.access.require(auth, 'output', id);
    const now = this.deps.clock.now();
    await this.deps.uow.transaction(async (uow) => {
      const found = await this.inOwnStream(uow, id);
      if (!found) return;
      const before = (await uow.outputs.sessionsOf([id])).get(id) ?? [];
      await uow.outputs.clearSessions(id, now);
      await this.deps.webhooks.sessionsChanged(uow.streams.db, found.stream, found.output, before, [], now);
    });
    await this.audit.record(auth, 'output.sessions.clear', id, {});
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    await this.deps.uow.access.require(auth, 'output', id);
    await this.deps.uow.transaction(async (uow) => {
      const found = await this.inOwnStream(uow, id);
      if (!found) throw notFound('Output');
      await this.deps.webhooks.outputDeleting(uow.streams.db, found.stream, found.output, this.deps.clock.now());
      // Of concurrent deletes, only the one that removed the row answers 204 (the others roll back their event).
      if (!(await uow.outputs.delete(id))) throw notFound('Output');
    });
    await this.audit.record(auth, 'output.delete', id, {});
  }

  /** The output and its stream, read in the unit of work `uow`. */
  private async inOwnStream(uow: Pick<StreamsScope, 'streams' | 'outputs'>, id: string) {
    const output: OutputRow | null = await uow.outputs.findById(id);
    const stream = output ? await uow.streams.findById(output.input_id) : null;
    return output && stream ? { output, stream } : null;
  }
}
