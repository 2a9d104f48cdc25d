import { randomUUID } from 'node:crypto';
import {
  type AccessTokenRotate,
  type AssignedInput,
  DEFAULT_ADJUSTABLE_TRACKS,
  INTERNODE_NO_GSLB,
  type IngressEndpoint,
  type InternodeSource,
  type Location,
  type MediaPorts,
  makeStreamName,
  type OutputFormat,
  outputModeOfName,
  PASSTHROUGH_PREFIX,
  PREVIEW_CREDENTIAL_TTL_SECONDS,
  type PreviewCredential,
  type RegionCode,
  type RotatedAccessToken,
  type StreamInput,
  type StreamInputCreate,
  type StreamInputUpdate,
  type StreamStateReport,
  type StreamStatus,
  type TrackInfo,
} from '@streamcloud/contract';
import { EDGE_CREDENTIAL_TTL_SECONDS, edgeKeyOf, signEdgeCredential } from '@streamcloud/contract/edge-credential';
import { previewKeyOf, signPreviewCredential } from '@streamcloud/contract/preview-credential';
import type { ResponseCache } from '../../db/response-cache.js';
import type { Scope } from '../../db/unit-of-work.js';
import type { AuthContext, NodeIdentity } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { geoPoint } from '../../lib/geo.js';
import { serves } from '../access/access.js';
import { AuditTrail } from '../audit/audit-trail.js';
import type { GeoLocator } from '../info/geo-locator.js';
import type { NodesService } from '../nodes/index.js';
import { measuredAt, type ReportContext } from '../nodes/index.js';
import { ingestConnection, playbackConnection, rtmpPort } from './connections.js';
import { ingestCandidates, reservedForOthers } from './ingest-placement.js';
import { candidateOf, chooseNode } from './node-assignment.js';
import { StreamEvents } from './stream-events.js';
import { mediaHostOf, servingNodeIdOf, toStreamInput } from './stream-mapper.js';
import { type NodeHostRow, type StreamOnNodeToLeave, type StreamRow, UnknownOwnerError } from './streams.repository.js';
import {
  newAccessToken,
  PUBLIC_STREAM_NO_TOKEN,
  previousTokenOf,
  rotatedAnswer,
  tokenRotation,
} from './token-rotation.js';

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
  /** Where the streams' and outputs' webhook events go. */
  /** The key each stream's preview key is derived from (derived from the API's root secret). */
  previewSigningKey: string;
  /** A node that sent no report for this long is gone: no new stream is placed on it. */
  nodeSilenceMs: number;
  /** The versions of accounts' playback signing material (PlaybackKeysService.signingVersionsOf), for Signed outputs. */
  signingVersionsOf?: (accountIds: string[]) => Promise<Map<string, string>>;
}

const NO_NODE_MESSAGE = 'No node is available: the stream will be assigned as soon as one is';
/**
 * How long a stream moved by a push to its GSLB name stays with that node against other nodes' claims: the
 * push that moved it goes live there within this, and a push reaching another node meanwhile is a second one.
 */
const INGRESS_CLAIM_HOLD_MS = 10_000;
/** What a stream's answer weighs in the response cache, about (its 50 messages at most dominate). */
const STREAM_ANSWER_BYTES = 4_096;

/** The states a user may stop a stream in (in Fallback, Stop ends the fallback playing). */
const STOPPABLE: readonly StreamStatus[] = ['Ingestion', 'Fallback', 'Pending'];

/**
 * The sessions of capped stream-wide tokens on the stream's outputs that other nodes serve (an output is served by
 * its edge, else by the stream's ingest node): what the calling node counts besides its own.
 */
function tokenSessionsElsewhere(
  sessions: readonly {
    input_id: string;
    node_id: string | null;
    token_id: string;
    session_id: string;
    started_at: Date;
  }[],
  stream: Pick<StreamRow, 'id' | 'node_id'>,
  nodeId: string,
): Pick<AssignedInput, 'tokenSessions'> {
  const elsewhere = sessions
    .filter((session) => session.input_id === stream.id && (session.node_id ?? stream.node_id) !== nodeId)
    .map((session) => ({
      tokenId: session.token_id,
      sessionId: session.session_id,
      startedAt: session.started_at.toISOString(),
    }));
  return elsewhere.length > 0 ? { tokenSessions: elsewhere } : {};
}

/** The signing material a node verifies an account's Signed outputs with, named by its version. */
function signingOf(accountId: string, versions: Map<string, string> | null): AssignedInput['signing'] {
  const version = versions?.get(accountId);
  return version === undefined ? null : { accountId, version };
}

/** Streams: creation and node assignment, the owner's reads and changes, and what nodes report. */
export class StreamsService {
  private readonly audit: AuditTrail;
  /** The domain events of streams and outputs (the outputs service publishes through it too). */
  readonly events = new StreamEvents();

  constructor(private readonly deps: StreamsServiceDeps) {
    this.audit = new AuditTrail(deps.uow.audit, deps.clock, 'input');
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
    const nodeId = servingNodeIdOf(output, stream.node_id);
    const node = nodeId ? await streams.nodeHost(nodeId) : null;
    const format = output.format as OutputFormat;
    return {
      streamId: stream.id,
      streamStatus: stream.status,
      format,
      access: output.access,
      hlsLatency: output.hls_latency,
      connection: node ? playbackConnection(format, mediaHostOf(node), output.name) : null,
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

  /** The nodes new streams may go to: enabled, opened and not silent (docs/decisions.md, "Placement skips silent nodes"). */
  private placeableNodes() {
    return this.deps.uow.streams.candidateNodes(new Date(this.deps.clock.now().getTime() - this.deps.nodeSilenceMs));
  }

  async create(auth: AuthContext, body: StreamInputCreate): Promise<StreamInput> {
    const ownerId = body.ownerId ?? auth.accountId;
    if (ownerId !== auth.accountId && auth.role !== 'ADMIN') {
      throw forbidden('Only administrators create streams for other accounts');
    }
    const source = body.source ? await this.internodeSource(auth, body.source) : null;
    const now = this.deps.clock.now();
    const id = randomUUID();
    const place = this.placeOf(body.streamer?.ipAddress, body.streamer?.geoLocation ?? null);
    const nodes = await this.placeableNodes();
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
    const adjustable = !body.output.passthrough;
    const row = {
      id,
      owner_id: ownerId,
      caption: body.caption || null,
      format: body.format,
      status: node ? ('Idle' as const) : ('Pending' as const),
      access: body.access,
      access_token:
        body.access === 'Public'
          ? null
          : body.access === 'Private' && body.accessToken
            ? body.accessToken
            : newAccessToken(),
      name: makeStreamName(adjustable ? 'in' : PASSTHROUGH_PREFIX, randomUUID()),
      callback_uri: body.callbackUri ?? null,
      streamer_ip: body.streamer?.ipAddress || null,
      streamer_latitude: place.geo?.latitude ?? null,
      streamer_longitude: place.geo?.longitude ?? null,
      gslb: body.gslb,
      parameters: {},
      node_id: node?.id ?? null,
      source_input_id: source?.id ?? null,
      output: {
        version: 2 as const,
        passthrough: !adjustable,
        tracks: body.output.tracks ?? (adjustable ? DEFAULT_ADJUSTABLE_TRACKS : []),
      },
    };
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
    const place = body.streamer ? this.placeOf(body.streamer.ipAddress, body.streamer.geoLocation ?? null) : null;
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
   * Places streams by the placement rules: those that wait for a node go to the best enabled and opened
   * node, if any; those that are not live on a node being drained, or on one another customer's group keeps
   * for itself, move to the best node they may use, else wait for one (Pending). Answers how many streams it placed or moved.
   */
  async assignWaiting(limit = 100): Promise<number> {
    const { uow } = this.deps;
    const [waiting, misplaced] = await Promise.all([
      uow.streams.unassigned(limit),
      uow.streams.notLiveOnNodesToLeave(limit),
    ]);
    if (waiting.length === 0 && misplaced.length === 0) return 0;
    const candidates = await this.placeableNodes();
    const counts = new Map(candidates.map((node) => [node.id, node.stream_count]));
    const placeOne = (stream: StreamRow) => {
      const chosen = chooseNode(
        ingestCandidates(candidates, stream.owner_id).map((candidate) =>
          candidateOf(candidate, counts.get(candidate.id) ?? 0),
        ),
        this.placeOf(stream.streamer_ip, geoPoint(stream.streamer_latitude, stream.streamer_longitude)),
      );
      if (chosen) counts.set(chosen.id, (counts.get(chosen.id) ?? 0) + 1);
      return chosen ? (candidates.find((candidate) => candidate.id === chosen.id) ?? null) : null;
    };
    let placed = 0;
    for (const stream of waiting) {
      const node = placeOne(stream);
      // Another stream of the batch may belong to a customer whose nodes are free.
      if (!node) continue;
      const now = this.deps.clock.now();
      await uow.transaction(async ({ streams }) => {
        await streams.update(
          stream.id,
          { node_id: node.id, ...(stream.status === 'Pending' ? { status: 'Idle' as const } : {}) },
          now,
        );
        await streams.addMessage(stream.id, { at: now, level: 'info', text: `Assigned to node ${node.name}` });
      });
      placed++;
    }
    for (const stream of misplaced) if (await this.moveOffNode(stream, placeOne(stream))) placed++;
    return placed;
  }

  /** Moves a stream that is not live off a node it must leave, to `node` or to no node (Pending). */
  private async moveOffNode(stream: StreamOnNodeToLeave, node: NodeHostRow | null) {
    // A drained node can still serve: with nowhere to go, its stream stays (Pending would only lose its URL).
    if (!node && stream.leaving === 'draining') return false;
    const now = this.deps.clock.now();
    const reason =
      stream.leaving === 'draining'
        ? `node ${stream.node_name} is being drained`
        : `node ${stream.node_name} is kept for another customer's streams`;
    return this.deps.uow.transaction(async (tx) => {
      const { streams } = tx;
      if (!stream.node_id || !(await streams.moveIfNotLive(stream.id, stream.node_id, node?.id ?? null, now))) {
        return false;
      }
      await streams.addMessage(
        stream.id,
        node
          ? { at: now, level: 'warning', text: `Moved to node ${node.name}: ${reason}` }
          : { at: now, level: 'warning', text: `Taken off: ${reason}. ${NO_NODE_MESSAGE}` },
      );
      const moved = await streams.findById(stream.id);
      if (moved) await this.events.statusChanged(tx, moved, stream.status, { at: now });
      return true;
    });
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
    const candidates = ingestCandidates(await this.placeableNodes(), stream.owner_id);
    const chosen = chooseNode(
      candidates.map((candidate) => candidateOf(candidate)),
      this.placeOf(callerIp, null),
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
    return rows.flatMap((row): AssignedInput[] => {
      const originHost = row.node_id === node.id ? null : origins.get(row.node_id ?? '');
      if (originHost === undefined) return [];
      const edgeKey = edgeKeyOf(this.deps.previewSigningKey, row.id);
      const served = (outputs.get(row.id) ?? []).filter((output) =>
        originHost ? output.node_id === node.id : output.node_id === null || output.node_id === node.id,
      );
      return [
        {
          id: row.id,
          name: row.name,
          format: row.format as AssignedInput['format'],
          status: row.status,
          access: row.access,
          // An edge never takes a push: it gets neither the access token nor the GSLB name.
          accessToken: originHost ? null : row.access_token,
          previousAccessToken: originHost ? null : previousTokenOf(row),
          outputMode: outputModeOfName(row.name),
          outputs: served.map((output) => ({
            id: output.id,
            name: output.name,
            format: output.format as AssignedInput['outputs'][number]['format'],
            access: output.access,
            ...(output.hls_latency ? { hlsLatency: output.hls_latency } : {}),
            ...(output.dvr_window_minutes ? { dvrWindowMinutes: output.dvr_window_minutes } : {}),
            accessToken: output.access_token,
            sessionsClearedAt: output.sessions_cleared_at?.toISOString() ?? null,
            previousAccessToken: previousTokenOf(output),
          })),
          ingressName: originHost ? null : row.ingress_name,
          previewKey: previewKeyOf(this.deps.previewSigningKey, row.id),
          edgeKey: originHost ? null : edgeKey,
          origin: originHost
            ? {
                nodeId: originHost.id,
                nodeName: originHost.name,
                hostname: originHost.hostname,
                rtmpPort: rtmpPort(mediaHostOf(originHost)),
                credential: signEdgeCredential(edgeKey, row.id, node.id, expiresAt),
                renditions: row.renditions ?? null,
              }
            : null,
          source: originHost ? null : this.sourceOf(row.source_input_id, sources, origins, node, expiresAt),
          signing: served.some((output) => output.access === 'Signed') ? signingOf(row.owner_id, signing) : null,
          ...tokenSessionsElsewhere(tokenSessions, row, node.id),
          versions: {
            config: row.config_version,
            snapshots: row.snapshots_version,
            recordings: row.recordings_version,
            relays: row.relays_version,
            fallbacks: row.fallbacks_version,
            outputs: row.outputs_version,
          },
        },
      ];
    });
  }

  /**
   * What the node ingesting an Internode stream pulls: the source stream on its node, with an edge credential
   * of the source bound to the pulling node (its node checks it as it checks an edge's), and whether it is live.
   */
  private sourceOf(
    sourceId: string | null,
    sources: Map<string, Pick<StreamRow, 'id' | 'name' | 'status' | 'node_id'>>,
    hosts: Map<string, NodeHostRow>,
    node: NodeIdentity,
    expiresAt: Date,
  ): AssignedInput['source'] {
    const source = sourceId ? sources.get(sourceId) : undefined;
    const host = source?.node_id ? hosts.get(source.node_id) : undefined;
    if (!source || !host) return null;
    return {
      inputId: source.id,
      name: source.name,
      live: source.status === 'Ingestion' || source.status === 'Fallback',
      nodeId: host.id,
      nodeName: host.name,
      hostname: host.hostname,
      rtmpPort: rtmpPort(mediaHostOf(host)),
      credential: signEdgeCredential(edgeKeyOf(this.deps.previewSigningKey, source.id), source.id, node.id, expiresAt),
    };
  }

  /** Node-facing: applies stream-state reports inside the batch's transaction. */
  readonly applyStateReports = async (
    context: ReportContext<StreamsScope>,
    reports: StreamStateReport[],
  ): Promise<void> => {
    const { streams } = context.uow;
    for (const report of reports) {
      const row = await streams.findById(report.streamId);
      if (!row) continue;
      // A node that does not ingest the stream (moved, or an edge of it) reports only the outputs it serves.
      if (!serves(context.node, row.node_id)) {
        await this.applySessions(context, row, report.outputs ?? []);
        continue;
      }
      if (report.status && report.status !== row.status)
        await streams.update(row.id, { status: report.status }, context.receivedAt);
      // The ladder its edges get: as reported; a push that starts or ends has none until its transcoder says so.
      if (report.renditions !== undefined) await streams.setRenditions(row.id, report.renditions);
      else if (report.status && report.status !== row.status) await streams.setRenditions(row.id, null);
      const at = measuredAt(context, report.at);
      if (report.message)
        await streams.addMessage(row.id, { at, level: report.message.level, text: report.message.text });
      else if (report.status && report.status !== row.status)
        // A status said again without a word (a node whose reports go through again after an outage): the
        // stream's messages still tell why it changed.
        await streams.addMessage(row.id, {
          at,
          level: 'info',
          text: `Node ${context.node.name} reports the stream ${report.status} again`,
        });
      if (report.status && report.status !== row.status) {
        await this.events.statusChanged(
          context.uow,
          { ...row, status: report.status, updated_at: context.receivedAt },
          row.status,
          {
            at,
            ...(report.message ? { message: report.message.text } : {}),
            ...(report.push ? { push: report.push } : {}),
          },
        );
      }
      for (const source of ['incoming', 'outgoing'] as const) {
        const tracks = report.tracks?.[source];
        if (tracks) await streams.replaceTracks(row.id, source, tracks);
      }
      await this.applySessions(context, row, report.outputs ?? []);
    }
  };

  /** The viewer sessions a node reported for outputs of `row`: only those of the outputs it serves count. */
  private async applySessions(
    context: ReportContext<StreamsScope>,
    row: StreamRow,
    reported: NonNullable<StreamStateReport['outputs']>,
  ): Promise<void> {
    const { outputs } = context.uow;
    for (const output of reported) {
      const target = await outputs.findOfInput(row.id, output.outputId);
      if (!target || servingNodeIdOf(target, row.node_id) !== context.node.id) continue;
      const sessions = output.sessions.map((session) => ({
        session_id: session.id,
        ip_address: session.ipAddress,
        started_at: new Date(session.startedAt),
        bytes: session.bytes,
        token_id: session.tokenId ?? null,
      }));
      // The sessions before are read only when a callback wants to hear of the change.
      const before = target.callback_uri ? ((await outputs.sessionsOf([target.id])).get(target.id) ?? []) : [];
      await outputs.replaceSessions(target.id, sessions);
      if (output.previews !== undefined && output.previews !== target.preview_sessions)
        await outputs.setPreviewSessions(target.id, output.previews);
      await this.events.sessionsChanged(context.uow, row, target, before, sessions, context.receivedAt);
    }
  }

  /** The stream's row once the caller's access is checked. */
  private async load(auth: AuthContext, id: string): Promise<StreamRow> {
    await this.deps.uow.access.require(auth, 'stream', id);
    const row = await this.deps.uow.streams.findById(id);
    if (!row) throw notFound('Stream');
    return row;
  }

  private placeOf(
    ipAddress: string | null | undefined,
    geo: { latitude: number; longitude: number } | null,
  ): {
    geo: { latitude: number; longitude: number } | null;
    region: RegionCode | null;
  } {
    const located = ipAddress ? this.deps.geo.locate(ipAddress) : null;
    return { geo: geo ?? located?.geo ?? null, region: located?.region ?? null };
  }
}
