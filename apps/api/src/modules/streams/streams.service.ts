import { randomUUID } from 'node:crypto';
import {
  type AccessTokenRotate,
  type AssignedInput,
  INTERNODE_NO_GSLB,
  type IngressEndpoint,
  type InternodeSource,
  type Location,
  type MediaPorts,
  makeStreamName,
  type OutputFormat,
  PREVIEW_CREDENTIAL_TTL_SECONDS,
  type PreviewCredential,
  type RotatedAccessToken,
  type StreamInput,
  type StreamInputCreate,
  type StreamInputUpdate,
  type StreamStatus,
  type TrackInfo,
} from '@streamcloud/contract';
import { EDGE_CREDENTIAL_TTL_SECONDS } from '@streamcloud/contract/edge-credential';
import { previewKeyOf, signPreviewCredential } from '@streamcloud/contract/preview-credential';
import type { ResponseCache } from '../../db/response-cache.js';
import type { Scope } from '../../db/unit-of-work.js';
import type { AuthContext, NodeIdentity } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { AuditTrail } from '../audit/audit-trail.js';
import type { GeoLocator } from '../info/geo-locator.js';
import type { NodesService } from '../nodes/index.js';
import { assignedInputs } from './assigned-inputs.js';
import { ingestConnection, playbackConnection } from './connections.js';
import { ingestCandidates, reservedForOthers } from './ingest-placement.js';
import { newStreamRow } from './new-stream.js';
import { candidateOf, chooseNode } from './node-assignment.js';
import { StreamEvents } from './stream-events.js';
import { mediaHostOf, servingNodeIdOf, toStreamInput } from './stream-mapper.js';
import { NO_NODE_MESSAGE, StreamPlacement } from './stream-placement.js';
import { UnknownOwnerError } from './streams.repository.js';
import type { StreamRow } from './streams.table.js';
import { PUBLIC_STREAM_NO_TOKEN, rotatedAnswer, tokenRotation } from './token-rotation.js';

/** What the streams module reads and writes: its streams and their outputs. */
export type StreamsScope = Scope<'streams' | 'outputs' | 'access' | 'audit' | 'events'>;

export interface StreamsServiceDeps {
  uow: StreamsScope;
  /** Where the list's pages and the streams read are kept until the next write (db/response-cache.ts). */
  responses: ResponseCache;
  geo: GeoLocator;
  clock: Clock;
  /** Tells a node at once that what it serves changed (a rotated token), rather than at its next poll. */
  nodes: Pick<NodesService, 'tellStreamsChanged'>;
  /** Host name of the global load-balancing ingest (GSLB): RTMP, SRT and RTSP pushes to GSLB names. */
  gslbHostname: string;
  /** The control plane's origin as publishers reach it: WHIP to a GSLB name is answered there (307 to a node). */
  gslbUrl: string;
  /** The key each stream's preview key is derived from (derived from the API's root secret). */
  previewSigningKey: string;
  /** A node that sent no report for this long is gone: no new stream is placed on it. */
  nodeSilenceMs: number;
  /** The versions of accounts' playback signing material (PlaybackKeysService.signingVersionsOf), for Signed outputs. */
  signingVersionsOf?: (accountIds: string[]) => Promise<Map<string, string>>;
}

/**
 * How long a stream moved by a push to its GSLB name stays with that node against other nodes' claims: the
 * push that moved it goes live there within this, and a push reaching another node meanwhile is a second one.
 */
const INGRESS_CLAIM_HOLD_MS = 10_000;
/** What a stream's answer weighs in the response cache, about (its 50 messages at most dominate). */
const STREAM_ANSWER_BYTES = 4_096;

/** The states a user may stop a stream in (in Fallback, Stop ends the fallback playing). */
const STOPPABLE: readonly StreamStatus[] = ['Ingestion', 'Fallback', 'Pending'];

/** Streams: creation and node assignment, the owner's reads and changes, and what nodes report. */
export class StreamsService {
  private readonly audit: AuditTrail;
  /** The domain events of streams and outputs (the outputs service publishes through it too). */
  readonly events = new StreamEvents();

  /** Where streams go: the nodes they may use, nearest their publisher. */
  private readonly placement: StreamPlacement;

  constructor(private readonly deps: StreamsServiceDeps) {
    this.audit = new AuditTrail(deps.uow.audit, deps.clock, 'input');
    this.placement = new StreamPlacement({ ...deps, events: this.events });
  }

  /**
   * A page of the list as its JSON (`StreamInputSummary[]`, written by the database, kept as UTF-8 bytes)
   * and the total.
   */
  async list(
    auth: AuthContext,
    account: string | undefined,
    offset: number,
    limit: number,
  ): Promise<{ json: Buffer; total: number }> {
    const ownerId = this.deps.uow.access.accountScope(auth, account);
    return this.deps.responses.read(
      `inputs:${ownerId ?? '*'}:${offset}:${limit}`,
      async () => {
        const { json, total } = await this.deps.uow.streams.listJson(ownerId, offset, limit);
        return { json: Buffer.from(json), total };
      },
      ({ json }) => json.length,
    );
  }

  /**
   * An output as its public player may know it (no caller: the output's id is what the embed page has): its
   * stream and that stream's status, format, access and the playback URLs of its connection; null for an
   * unknown output. Nothing secret: no token, no owner, no node beyond the URLs viewers get anyway.
   */
  async playerOutput(outputId: string) {
    const { outputs, streams } = this.deps.uow;
    const output = await outputs.findById(outputId);
    const stream = output && (await streams.findById(output.input_id));
    if (!output || !stream) return null;
    // Both outputs are usually served by one node: its host is read once (this read is public and polled).
    const hosts = new Map<string, ReturnType<typeof streams.nodeHost>>();
    const connectionOf = async (row: typeof output, format: OutputFormat) => {
      const nodeId = servingNodeIdOf(row, stream.node_id);
      if (!nodeId) return null;
      if (!hosts.has(nodeId)) hosts.set(nodeId, streams.nodeHost(nodeId));
      const node = await hosts.get(nodeId);
      return node ? playbackConnection(format, mediaHostOf(node), row.name) : null;
    };
    const format = output.format as OutputFormat;
    // A WebRTC output's HLS fallback, for a browser without WebRTC: the stream's first HLS output under the same
    // access (not Private: its static token is the output's own, so the viewer's would not open the other).
    const fallback =
      format === 'WebRTC' && output.access !== 'Private'
        ? await outputs.firstOfStream(stream.id, 'HLS', output.access)
        : undefined;
    return {
      streamId: stream.id,
      streamStatus: stream.status,
      format,
      access: output.access,
      hlsLatency: output.hls_latency,
      connection: await connectionOf(output, format),
      hlsFallback: fallback
        ? { hlsLatency: fallback.hls_latency, connection: await connectionOf(fallback, 'HLS') }
        : null,
    };
  }

  /**
   * One stream with its latest messages and the node it is on: access checked in the same query. The answer
   * depends on the reader's scope alone (an ADMIN's is every account's, and only an ADMIN's is).
   */
  async get(auth: AuthContext, id: string): Promise<StreamInput> {
    const { streams, access } = this.deps.uow;
    const ownerId = access.accountScope(auth, undefined);
    const stream = await this.deps.responses.read(
      `input:${id}:${ownerId ?? '*'}`,
      async () => {
        const found = await streams.findWithDetails(id, ownerId);
        return found && toStreamInput(found.row, found.messages, found.node, ownerId === null, found.source);
      },
      () => STREAM_ANSWER_BYTES,
    );
    if (!stream) throw notFound('Stream');
    return stream;
  }

  async create(auth: AuthContext, body: StreamInputCreate): Promise<StreamInput> {
    const ownerId = body.ownerId ?? auth.accountId;
    if (ownerId !== auth.accountId && auth.role !== 'ADMIN') {
      throw forbidden('Only administrators create streams for other accounts');
    }
    const source = body.source ? await this.internodeSource(auth, body.source) : null;
    const now = this.deps.clock.now();
    const id = randomUUID();
    const place = this.placement.placeOf(body.streamer?.ipAddress, body.streamer?.geoLocation ?? null);
    const nodes = await this.placement.placeableNodes();
    // An Internode stream goes to another node than its source's when the owner may use one (of any tier: a
    // copy on the source's own node would only loop through it); else to that node, better than Pending.
    const elsewhere = ingestCandidates(
      nodes.filter((candidate) => candidate.id !== source?.node_id),
      ownerId,
    );
    const node = chooseNode(
      (elsewhere.length > 0 ? elsewhere : ingestCandidates(nodes, ownerId)).map((candidate) => candidateOf(candidate)),
      place,
    );
    const row = newStreamRow(body, { id, ownerId, place, nodeId: node?.id ?? null, sourceId: source?.id ?? null });
    await this.deps.uow.transaction(async ({ streams }) => {
      await streams.insert(row).catch((error: unknown) => {
        throw error instanceof UnknownOwnerError ? badRequest('Owner account does not exist', 'UNKNOWN_OWNER') : error;
      });
      await streams.addMessage(
        id,
        node
          ? { at: now, level: 'info', text: 'Stream created' }
          : { at: now, level: 'warning', text: NO_NODE_MESSAGE },
      );
      if (body.gslb) await streams.insertIngress(id, makeStreamName('as', randomUUID()));
    });
    await this.audit.record(auth, 'input.create', id, { format: row.format, access: row.access });
    return this.get(auth, id);
  }

  /**
   * The source of a new Internode stream: a stream the caller may see, named `source.name`, on the node named
   * `source.streamNode` (as its dashboard shows them); 400 naming the field otherwise.
   */
  private async internodeSource(auth: AuthContext, source: InternodeSource) {
    const { streams, access } = this.deps.uow;
    const found = await streams.findByName(source.name, access.accountScope(auth, undefined));
    if (!found) throw badRequest(`Stream name: no stream named ${source.name} is yours to pull`, 'UNKNOWN_SOURCE');
    if (found.node_name?.toLowerCase() !== source.streamNode.toLowerCase())
      throw badRequest(
        `Stream node: stream ${found.name} is ${found.node_name ? `on node ${found.node_name}` : 'not on any node'}, not on ${source.streamNode}`,
        'SOURCE_NOT_ON_NODE',
      );
    return found;
  }

  async update(auth: AuthContext, id: string, body: StreamInputUpdate): Promise<StreamInput> {
    const row = await this.load(auth, id);
    const now = this.deps.clock.now();
    const notStoppable = (status: string) =>
      conflict(`A stream can be stopped only in Ingestion, Fallback or Pending; it is ${status}`, 'INVALID_STATE');
    if (body.state === 'Idle' && !STOPPABLE.includes(row.status)) throw notStoppable(row.status);
    const place = body.streamer
      ? this.placement.placeOf(body.streamer.ipAddress, body.streamer.geoLocation ?? null)
      : null;
    await this.deps.uow.transaction(async (tx) => {
      const { streams } = tx;
      await streams.update(
        id,
        {
          ...(body.caption !== undefined ? { caption: body.caption || null } : {}),
          ...(body.streamer
            ? {
                streamer_ip: body.streamer.ipAddress || null,
                streamer_latitude: place?.geo?.latitude ?? null,
                streamer_longitude: place?.geo?.longitude ?? null,
              }
            : {}),
        },
        now,
      );
      if (body.state) {
        // The state is checked again by the write itself: of concurrent stops, one stops the stream.
        if (!(await streams.stop(id, STOPPABLE, now))) throw notStoppable('Idle');
        await streams.addMessage(id, { at: now, level: 'info', text: `Stopped by ${auth.username}` });
        const stopped = await streams.findById(id);
        if (stopped) await this.events.statusChanged(tx, stopped, row.status, { at: now });
      }
    });
    await this.audit.record(auth, body.state ? 'input.stop' : 'input.update', id, { fields: Object.keys(body) });
    return this.get(auth, id);
  }

  /** Deletes the stream; its outputs, messages, tracks and everything attached go with it (cascade). */
  async delete(auth: AuthContext, id: string): Promise<void> {
    await this.deps.uow.access.require(auth, 'stream', id);
    await this.deps.uow.transaction(async (tx) => {
      const { streams } = tx;
      const row = await streams.findById(id);
      if (!row) throw notFound('Stream');
      await this.events.deleting(tx, row, this.deps.clock.now());
      // Of concurrent deletes, only the one that removed the row answers 204 (the others roll back their event).
      if (!(await streams.delete(id))) throw notFound('Stream');
    });
    await this.audit.record(auth, 'input.delete', id, {});
  }

  /**
   * Replaces the stream's ingest access token; the old one is still taken for `overlapMinutes` (docs/decisions.md,
   * "Token rotation"). The new token is answered; the stream's node is told at once. Pushes going on are not cut.
   */
  async rotateAccessToken(auth: AuthContext, id: string, body: AccessTokenRotate): Promise<RotatedAccessToken> {
    const row = await this.load(auth, id);
    const rotation = tokenRotation(this.deps.clock.now(), body.overlapMinutes);
    // The write checks the rule itself: only a stream with a token (not Public) has one to replace.
    if (!(await this.deps.uow.streams.rotateAccessToken(id, rotation)))
      throw conflict(PUBLIC_STREAM_NO_TOKEN, 'NO_ACCESS_TOKEN');
    await this.audit.record(auth, 'input.access-token.rotate', id, { overlapMinutes: body.overlapMinutes });
    if (row.node_id) await this.deps.nodes.tellStreamsChanged(row.node_id);
    return rotatedAnswer(rotation);
  }

  /**
   * A preview credential for the stream (any stream the caller may see, Private ones too): its outputs
   * play for the console's preview player, reported as preview sessions, neither viewers nor billed.
   */
  async preview(auth: AuthContext, id: string): Promise<PreviewCredential> {
    await this.deps.uow.access.require(auth, 'stream', id);
    const expiresAt = new Date(this.deps.clock.now().getTime() + PREVIEW_CREDENTIAL_TTL_SECONDS * 1000);
    const key = previewKeyOf(this.deps.previewSigningKey, id);
    return { token: signPreviewCredential(key, id, expiresAt), expiresAt: expiresAt.toISOString() };
  }

  async tracks(auth: AuthContext, id: string, source: 'incoming' | 'outgoing'): Promise<TrackInfo[]> {
    await this.deps.uow.access.require(auth, 'stream', id);
    return this.deps.uow.streams.tracks(id, source);
  }

  async provisionIngress(auth: AuthContext, streamId: string): Promise<IngressEndpoint> {
    await this.deps.uow.access.require(auth, 'stream', streamId);
    if ((await this.deps.uow.streams.findById(streamId))?.format === 'Internode')
      throw badRequest(INTERNODE_NO_GSLB, 'INTERNODE_NO_PUSH');
    const created = await this.deps.uow.transaction(async ({ streams }) => {
      const inserted = await streams.insertIngress(streamId, makeStreamName('as', randomUUID()));
      if (inserted) await streams.setGslb(streamId, this.deps.clock.now());
      return inserted;
    });
    if (!created) throw conflict('The ingress endpoint of this stream already exists', 'INGRESS_EXISTS');
    await this.audit.record(auth, 'ingress.create', streamId, {});
    return this.ingress(auth, streamId);
  }

  async ingress(auth: AuthContext, streamId: string): Promise<IngressEndpoint> {
    const row = await this.load(auth, streamId);
    const name = await this.deps.uow.streams.ingressName(streamId);
    if (!name) throw notFound('Ingress endpoint');
    const format = row.format === 'Internode' ? 'RTMP' : (row.format as StreamInput['format']);
    // WHIP goes to the control plane (it redirects to a node); the other protocols to the GSLB host's nodes.
    const whip = new URL(this.deps.gslbUrl);
    const host =
      format === 'WebRTC'
        ? {
            protocol: whip.protocol.replace(':', ''),
            hostname: whip.hostname,
            port: Number(whip.port) || (whip.protocol === 'https:' ? 443 : 80),
            nodeName: whip.hostname,
          }
        : { protocol: 'HTTPS', hostname: this.deps.gslbHostname, port: 443, nodeName: this.deps.gslbHostname };
    const connection = ingestConnection(format, host, name);
    const uri = 'uri' in connection ? connection.uri : 'signallingUri' in connection ? connection.signallingUri : '';
    return { streamId, name, connection: { uri } };
  }

  location(ipAddress: string): Location {
    const location = this.deps.geo.locate(ipAddress);
    if (!location) throw notFound('Location');
    return { ipAddress: location.ipAddress, description: location.description, geo: location.geo };
  }

  /**
   * Places the streams that wait for a node, and moves those that are not live off nodes they must leave (the
   * periodic job). Answers how many streams it placed or moved.
   */
  assignWaiting(limit = 100): Promise<number> {
    return this.placement.assignWaiting(limit);
  }

  /** Node-facing: the node tells the ports of its media services; its push and playback URLs use them. */
  async setMediaPorts(node: NodeIdentity, ports: MediaPorts): Promise<{ ports: MediaPorts }> {
    await this.deps.uow.streams.setMediaPorts(node.id, ports, this.deps.clock.now());
    return { ports };
  }

  /**
   * A node that sent no report (its load heartbeat comes every 5 s) for `silenceMs` is taken as gone:
   * its streams in Ingestion become Error with a message. Answers how many streams changed.
   */
  async expireSilentNodes(silenceMs: number): Promise<number> {
    const now = this.deps.clock.now();
    const rows = await this.deps.uow.streams.ingestingOnSilentNodes(new Date(now.getTime() - silenceMs));
    for (const row of rows) {
      await this.deps.uow.transaction(async (tx) => {
        const { streams } = tx;
        const current = await streams.findById(row.id);
        if (current?.status !== 'Ingestion') return;
        const text = `Node ${row.node_name} stopped reporting for ${Math.round(silenceMs / 1000)} s: the push is lost`;
        await streams.update(row.id, { status: 'Error' }, now);
        await streams.addMessage(row.id, { at: now, level: 'error', text });
        await this.events.statusChanged(tx, { ...current, status: 'Error', updated_at: now }, 'Ingestion', {
          at: now,
          message: text,
        });
      });
    }
    return rows.length;
  }

  /**
   * Node-facing: a push to a stream's GSLB name reached `node`. GSLB DNS sends a streamer to a node near
   * them, so the push is where the stream belongs: a stream that is not live moves to that node (one the
   * stream's owner may use); while it is live (Ingestion or Fallback) the push is refused as on its node.
   */
  async claimIngress(node: NodeIdentity, name: string): Promise<AssignedInput> {
    const { uow } = this.deps;
    const stream = await uow.streams.findByIngressName(name);
    if (!stream) throw notFound('Ingress endpoint');
    if (stream.node_id !== node.id) {
      const host = (await uow.streams.candidateNodes()).find((candidate) => candidate.id === node.id);
      if (!host || reservedForOthers(host, stream.owner_id)) {
        throw forbidden(`Node ${node.name} does not take this stream's pushes`);
      }
      const now = this.deps.clock.now();
      const moved = await uow.transaction(async ({ streams }) => {
        const heldSince = new Date(now.getTime() - INGRESS_CLAIM_HOLD_MS);
        const move = { fromNodeId: stream.node_id, nodeId: node.id, now, heldSince };
        if (!(await streams.claimForNode(stream.id, move))) return false;
        const text = `Moved to node ${node.name}: a push to its GSLB name arrived there`;
        await streams.addMessage(stream.id, { at: now, level: 'info', text });
        return true;
      });
      if (!moved) {
        const live = await uow.streams.findByIngressName(name);
        if (live?.status === 'Ingestion' || live?.status === 'Fallback')
          throw conflict('The stream is live on another node: a second push is refused', 'STREAM_LIVE');
        throw conflict(
          'A push to this name reached another node a moment ago: a second push is refused',
          'STREAM_LIVE',
        );
      }
    }
    const assigned = (await this.ofNode(node)).find((input) => input.id === stream.id);
    if (!assigned) throw notFound('Ingress endpoint');
    return assigned;
  }

  /**
   * Where a WebRTC publisher of a GSLB name is sent (WHIP allows redirects): the WHIP URL of the node
   * placement picks for the caller's address among those the stream's owner may use.
   */
  async gslbWhipTarget(name: string, callerIp: string): Promise<string> {
    const stream = await this.deps.uow.streams.findByIngressName(name);
    if (!stream) throw notFound('Ingress endpoint');
    const candidates = ingestCandidates(await this.placement.placeableNodes(), stream.owner_id);
    const chosen = chooseNode(
      candidates.map((candidate) => candidateOf(candidate)),
      this.placement.placeOf(callerIp, null),
    );
    const host = candidates.find((candidate) => candidate.id === chosen?.id);
    if (!host) throw new AppError(503, 'NO_NODE', 'No node is available to take this push');
    const connection = ingestConnection('WebRTC', mediaHostOf(host), name);
    return 'signallingUri' in connection ? connection.signallingUri : '';
  }

  /**
   * Node-facing: the streams a node serves, with what it needs to admit pushes and plays (three queries at
   * most): those it ingests, with the outputs it serves itself (not those assigned to edges), and those it is
   * an edge of, with only the outputs assigned to it, where to pull them from and a fresh pull credential.
   */
  async ofNode(node: NodeIdentity): Promise<AssignedInput[]> {
    const rows = await this.deps.uow.streams.ofNode(node.id);
    const outputs = await this.deps.uow.outputs.ofStreams(rows.map((row) => row.id));
    const tokenSessions = await this.deps.uow.outputs.tokenSessionsOf(rows.map((row) => row.id));
    const sources = new Map(
      (
        await this.deps.uow.streams.sources(
          rows.flatMap((row) => (row.node_id === node.id && row.source_input_id ? [row.source_input_id] : [])),
        )
      ).map((source) => [source.id, source] as const),
    );
    const originIds = [
      ...new Set([
        ...rows.flatMap((row) => (row.node_id && row.node_id !== node.id ? [row.node_id] : [])),
        ...[...sources.values()].flatMap((source) => (source.node_id ? [source.node_id] : [])),
      ]),
    ];
    const origins = new Map(
      (await Promise.all(originIds.map((id) => this.deps.uow.streams.nodeHost(id)))).flatMap((host) =>
        host ? [[host.id, host] as const] : [],
      ),
    );
    const expiresAt = new Date(this.deps.clock.now().getTime() + EDGE_CREDENTIAL_TTL_SECONDS * 1000);
    // Only the accounts with a Signed output here get their keys named (secrets go no further than they must).
    const signedOwners = [
      ...new Set(
        rows.flatMap((row) =>
          (outputs.get(row.id) ?? []).some((output) => output.access === 'Signed') ? [row.owner_id] : [],
        ),
      ),
    ];
    const signing =
      signedOwners.length > 0 && this.deps.signingVersionsOf ? await this.deps.signingVersionsOf(signedOwners) : null;
    return assignedInputs({
      node,
      rows,
      outputs,
      tokenSessions,
      sources,
      origins,
      signing,
      previewSigningKey: this.deps.previewSigningKey,
      expiresAt,
    });
  }

  /** The stream's row once the caller's access is checked. */
  private async load(auth: AuthContext, id: string): Promise<StreamRow> {
    await this.deps.uow.access.require(auth, 'stream', id);
    const row = await this.deps.uow.streams.findById(id);
    if (!row) throw notFound('Stream');
    return row;
  }
}
