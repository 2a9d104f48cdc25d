import { randomBytes, randomUUID } from 'node:crypto';
import {
  type AccessTokenRotate,
  DEFAULT_HLS_LATENCY,
  DVR_NEEDS_LOW_LATENCY,
  HLS_LATENCY_ONLY_FOR_HLS,
  makeStreamName,
  type OutputAccess,
  type RotatedAccessToken,
  type StreamOutput,
  type StreamOutputCreate,
  type StreamOutputUpdate,
} from '@streamcloud/contract';
import type { AuthContext } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { conflict, invalidField, notFound } from '../../lib/errors.js';
import { geoPoint } from '../../lib/geo.js';
import { AuditTrail } from '../audit/audit-trail.js';
import type { GeoLocator } from '../info/geo-locator.js';
import type { NodesService } from '../nodes/index.js';
import { placeOutput } from './output-placement.js';
import type { OutputRow } from './outputs.repository.js';
import type { StreamEvents } from './stream-events.js';
import { servingNodeIdOf, toStreamOutput } from './stream-mapper.js';
import type { StreamsScope } from './streams.service.js';
import { PUBLIC_OUTPUT_NO_TOKEN, rotatedAnswer, tokenRotation } from './token-rotation.js';

export interface OutputsServiceDeps {
  uow: StreamsScope;
  /** Tells a node at once that what it serves changed (a rotated token), rather than at its next poll. */
  nodes: Pick<NodesService, 'tellStreamsChanged'>;
  geo: GeoLocator;
  clock: Clock;
  /** The streams module's webhook events: output sessions and deletions are sent through it. */
  /** Publishes the outputs' domain events (the streams service's). */
  events: Pick<StreamEvents, 'sessionsChanged' | 'outputDeleting'>;
  /** A node that sent no report for this long is gone: no output is placed on it. */
  nodeSilenceMs: number;
  /** Tells the nodes serving an account's streams to read them now (NodesService.pushStreamsOf). */
  pushToNodes?: (accountId: string) => Promise<unknown>;
}

/** A new static viewer token (Private outputs). */
const newViewerToken = () => randomBytes(24).toString('base64url');

/** Viewer outputs (playback endpoints) of the caller's streams. */
export class OutputsService {
  private readonly audit: AuditTrail;

  constructor(private readonly deps: OutputsServiceDeps) {
    this.audit = new AuditTrail(deps.uow.audit, deps.clock, 'output');
  }

  /** Nodes silent since then are gone: no output is placed on them. */
  private healthySince(): Date {
    return new Date(this.deps.clock.now().getTime() - this.deps.nodeSilenceMs);
  }

  async create(auth: AuthContext, body: StreamOutputCreate): Promise<StreamOutput> {
    const { access, streams, outputs } = this.deps.uow;
    await access.require(auth, 'stream', body.streamId);
    const stream = await streams.findById(body.streamId);
    if (!stream) throw notFound('Stream');
    const located = body.viewer?.ipAddress ? this.deps.geo.locate(body.viewer.ipAddress) : null;
    const geo = body.viewer?.geoLocation ?? located?.geo ?? null;
    const placed = placeOutput(await streams.candidateNodes(this.healthySince()), stream.owner_id, stream.node_id, {
      geo,
      region: located?.region ?? null,
    });
    // As before outputs had their own policy: a Private stream's outputs are Private unless the body says.
    const policy: OutputAccess = body.access ?? (stream.access === 'Private' ? 'Private' : 'Public');
    const row = await outputs.insert({
      id: randomUUID(),
      input_id: stream.id,
      format: body.format,
      name: makeStreamName('out', randomUUID()),
      callback_uri: body.callbackUri ?? null,
      viewer_ip: body.viewer?.ipAddress || null,
      viewer_latitude: geo?.latitude ?? null,
      viewer_longitude: geo?.longitude ?? null,
      // Each Private output has its own viewer token; a Signed one gets one too, for a later return to Private.
      access: policy,
      access_token: policy === 'Public' ? null : newViewerToken(),
      hls_latency: body.format === 'HLS' ? (body.hlsLatency ?? DEFAULT_HLS_LATENCY) : null,
      dvr_window_minutes: body.dvrWindowMinutes ?? 0,
      sessions_cleared_at: null,
      preview_sessions: 0,
      node_id: placed.node?.id ?? null,
      ingest_chosen: placed.ingestChosen,
    });
    await this.audit.record(auth, 'output.create', row.id, {
      streamId: stream.id,
      format: row.format,
      access: row.access,
      ...(row.hls_latency ? { hlsLatency: row.hls_latency } : {}),
    });
    const nodeId = servingNodeIdOf(row, stream.node_id);
    return toStreamOutput(row, nodeId ? await streams.nodeHost(nodeId) : null, []);
  }

  /**
   * A new policy for an output, live: a Private output without a viewer token gets one. Its node is told at
   * once (`pushToNodes`), and disconnects the viewers the new policy no longer admits.
   */
  async update(auth: AuthContext, id: string, body: StreamOutputUpdate): Promise<StreamOutput> {
    const { ownerId } = await this.deps.uow.access.require(auth, 'output', id);
    const found = await this.inOwnStream(this.deps.uow, id);
    if (!found) throw notFound('Output');
    const before = found.output;
    if (body.hlsLatency && before.format !== 'HLS') throw invalidField('hlsLatency', HLS_LATENCY_ONLY_FOR_HLS);
    const hlsLatency = body.hlsLatency ?? before.hls_latency;
    const dvrWindowMinutes = body.dvrWindowMinutes ?? (hlsLatency === 'Low' ? before.dvr_window_minutes : 0);
    if (dvrWindowMinutes > 0 && hlsLatency !== 'Low') throw invalidField('dvrWindowMinutes', DVR_NEEDS_LOW_LATENCY);
    const access = body.access ?? before.access;
    const token = access === 'Public' || before.access_token ? before.access_token : newViewerToken();
    const row = await this.deps.uow.outputs.setPolicy(id, {
      access,
      access_token: token,
      hls_latency: hlsLatency,
      dvr_window_minutes: dvrWindowMinutes,
    });
    if (!row) throw notFound('Output');
    await this.audit.record(auth, 'output.update', id, {
      access: row.access,
      before: before.access,
      ...(row.hls_latency ? { hlsLatency: row.hls_latency } : {}),
      ...(row.dvr_window_minutes ? { dvrWindowMinutes: row.dvr_window_minutes } : {}),
    });
    const changed =
      before.access !== row.access ||
      before.hls_latency !== row.hls_latency ||
      before.dvr_window_minutes !== row.dvr_window_minutes;
    if (ownerId && changed) void this.deps.pushToNodes?.(ownerId).catch(() => undefined);
    const nodeId = servingNodeIdOf(row, found.stream.node_id);
    const sessions = await this.deps.uow.outputs.sessionsOf([id]);
    return toStreamOutput(row, nodeId ? await this.deps.uow.streams.nodeHost(nodeId) : null, sessions.get(id) ?? []);
  }

  /** An output's access policy, for a module that judges what it admits (the token test); null when it is gone. */
  async policyOf(id: string): Promise<OutputAccess | null> {
    return (await this.deps.uow.outputs.findById(id))?.access ?? null;
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

  /**
   * Outputs follow their nodes (the assignment job): an output whose edge node is disabled, closed or silent
   * (no report for `silenceMs`) is placed again among the healthy candidates, and one on its stream's ingest
   * node for lack of an edge (none when it was created, or its edge was deleted) goes to an edge once its owner
   * may use one (an Outgoing group gained its first node). Each move is one conditional UPDATE (the output still
   * where it was read) with a message on the stream; the nodes see it at their next read of their inputs (the
   * old one disconnects the output's viewers, whose players reconnect to the URL the console shows now).
   * Answers how many outputs moved.
   */
  async replaceMisplaced(silenceMs = this.deps.nodeSilenceMs, limit = 100): Promise<number> {
    const { streams, outputs } = this.deps.uow;
    const since = new Date(this.deps.clock.now().getTime() - silenceMs);
    const healthy = await streams.candidateNodes(since);
    const misplaced = await outputs.misplaced(since, healthy.length > 0, limit);
    let moved = 0;
    for (const output of misplaced) {
      const placed = placeOutput(healthy, output.owner_id, output.stream_node_id, {
        geo: geoPoint(output.viewer_latitude, output.viewer_longitude),
        region: null,
      });
      const to = placed.node?.id ?? null;
      if (to === output.node_id) {
        // Where it is, now by choice (the ingest node is the nearest of the edges): not read again every run.
        if (placed.ingestChosen) await outputs.move(output.id, output.node_id, to, true);
        continue;
      }
      const now = this.deps.clock.now();
      const done = await this.deps.uow.transaction(async (uow) => {
        if (!(await uow.outputs.move(output.id, output.node_id, to, placed.ingestChosen))) return false;
        const where = placed.node ? `node ${placed.node.name}` : 'the ingest node';
        const why = output.node_name ? `: node ${output.node_name} ${output.unfit}` : '';
        await uow.streams.addMessage(output.input_id, {
          at: now,
          level: output.node_name ? 'warning' : 'info',
          text: `Viewers of ${output.name} moved to ${where}${why}`,
        });
        return true;
      });
      if (done) moved++;
    }
    return moved;
  }

  /**
   * Replaces the output's viewer token; the old one is still taken for `overlapMinutes` (docs/decisions.md,
   * "Token rotation"). The new token is answered; the node serving the output is told at once. Viewers
   * watching are not cut (Clear sessions does that).
   */
  async rotateAccessToken(auth: AuthContext, id: string, body: AccessTokenRotate): Promise<RotatedAccessToken> {
    const { nodeId: streamNodeId } = await this.deps.uow.access.require(auth, 'output', id);
    const output = await this.deps.uow.outputs.findById(id);
    if (!output) throw notFound('Output');
    const rotation = tokenRotation(this.deps.clock.now(), body.overlapMinutes);
    if (!(await this.deps.uow.outputs.rotateAccessToken(id, rotation)))
      throw conflict(PUBLIC_OUTPUT_NO_TOKEN, 'NO_ACCESS_TOKEN');
    await this.audit.record(auth, 'output.access-token.rotate', id, { overlapMinutes: body.overlapMinutes });
    const nodeId = servingNodeIdOf(output, streamNodeId);
    if (nodeId) await this.deps.nodes.tellStreamsChanged(nodeId);
    return rotatedAnswer(rotation);
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
      await this.deps.events.sessionsChanged(uow, found.stream, found.output, before, [], now);
    });
    await this.audit.record(auth, 'output.sessions.clear', id, {});
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    await this.deps.uow.access.require(auth, 'output', id);
    await this.deps.uow.transaction(async (uow) => {
      const found = await this.inOwnStream(uow, id);
      if (!found) throw notFound('Output');
      await this.deps.events.outputDeleting(uow, found.stream, found.output, this.deps.clock.now());
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
