import {
  outputModeOfName,
  PRIVATE_ACCESS_MODES,
  type ServingNode,
  type StreamInput,
  type StreamInputSummary,
  type StreamOutput,
} from '@streamcloud/contract';
import { geoPoint } from '../../lib/geo.js';
import { ingestConnection, type MediaHost, playbackConnection } from './connections.js';
import type { OutputRow, SessionRow } from './outputs.repository.js';
import type { InternodeSourceRow, NodeHostRow, StatusMessageRow, StreamRow } from './streams.table.js';

export const mediaHostOf = (node: NodeHostRow): MediaHost => ({
  protocol: node.protocol,
  hostname: node.hostname,
  port: node.port,
  nodeName: node.name,
  mediaPorts: node.media_ports,
});

const isPrivate = (row: Pick<StreamRow, 'access'>) => PRIVATE_ACCESS_MODES.includes(row.access);

export function toSummary(
  row: Pick<
    StreamRow,
    'id' | 'owner_id' | 'caption' | 'format' | 'status' | 'access' | 'name' | 'node_id' | 'created_at'
  >,
): StreamInputSummary {
  return {
    id: row.id,
    ownerId: row.owner_id,
    caption: row.caption,
    format: row.format as StreamInput['format'],
    status: row.status,
    access: row.access,
    outputMode: outputModeOfName(row.name),
    name: row.name,
    nodeId: row.node_id,
    createdAt: row.created_at.toISOString(),
  };
}

/** The serving node with the groups the reader may see: the stream owner's own, or all for an ADMIN. */
export function servingNodeOf(node: NodeHostRow, ownerId: string, seesAllGroups: boolean): ServingNode {
  return {
    id: node.id,
    name: node.name,
    groups: node.groups
      .filter((group) => seesAllGroups || group.owner_id === ownerId)
      .map((group) => ({ id: group.id, name: group.name, assignment: group.assignment, ownerId: group.owner_id })),
  };
}

/**
 * Where the stream comes from, on the node it is on: a push endpoint; for an Internode stream the source's
 * node (`{hostname, streamNode}`: what the stream is pulled from), null while either has no node.
 */
function connectionOf(row: StreamRow, node: NodeHostRow | null, source: InternodeSourceRow | null) {
  const format = row.format as StreamInput['format'];
  if (format === 'Internode')
    return node && source?.node_host ? ingestConnection(format, mediaHostOf(source.node_host), row.name) : null;
  return node ? ingestConnection(format, mediaHostOf(node), row.name) : null;
}

/** A stream as the API answers it; `seesAllGroups` (ADMIN readers) lists the serving node's every group. */
export function toStreamInput(
  row: StreamRow,
  messages: StatusMessageRow[],
  node: NodeHostRow | null,
  seesAllGroups = false,
  source: InternodeSourceRow | null = null,
): StreamInput {
  return {
    ...toSummary(row),
    accessToken: isPrivate(row) ? row.access_token : null,
    accessTokenRotatedAt: row.access_token_rotated_at?.toISOString() ?? null,
    callbackUri: row.callback_uri,
    streamer: {
      ipAddress: row.streamer_ip,
      geoLocation: geoPoint(row.streamer_latitude, row.streamer_longitude),
    },
    gslb: row.gslb,
    parameters: row.parameters,
    statusMessages: messages.map((message) => ({ ...message, at: message.at.toISOString() })),
    connection: connectionOf(row, node, source),
    servingNode: node ? servingNodeOf(node, row.owner_id, seesAllGroups) : null,
    source: source ? { id: source.id, name: source.name, streamNode: source.node_host?.name ?? null } : null,
    output: row.output,
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * The node serving an output's viewers: its edge node when it has one, else the stream's ingest node; none
 * while the stream has no node (an edge has nothing to pull then).
 */
export const servingNodeIdOf = (output: Pick<OutputRow, 'node_id'>, streamNodeId: string | null): string | null =>
  streamNodeId && (output.node_id ?? streamNodeId);

/** An output as the API answers it; `node` serves its viewers (`servingNodeIdOf`; null while the stream has none). */
export function toStreamOutput(row: OutputRow, node: NodeHostRow | null, sessions: SessionRow[]): StreamOutput {
  const format = row.format as StreamOutput['format'];
  return {
    id: row.id,
    streamId: row.input_id,
    format,
    name: row.name,
    access: row.access,
    hlsLatency: row.hls_latency,
    dvrWindowMinutes: row.dvr_window_minutes,
    connection: node ? playbackConnection(format, mediaHostOf(node), row.name) : null,
    viewer: {
      ipAddress: row.viewer_ip,
      geoLocation: geoPoint(row.viewer_latitude, row.viewer_longitude),
      accessToken: row.access_token,
      accessTokenRotatedAt: row.access_token_rotated_at?.toISOString() ?? null,
    },
    callbackUri: row.callback_uri,
    sessions: sessions.map((session) => ({
      id: session.session_id,
      ipAddress: session.ip_address,
      startedAt: session.started_at.toISOString(),
      bytes: session.bytes,
    })),
    previews: row.preview_sessions,
    node: node ? { id: node.id, name: node.name } : null,
    createdAt: row.created_at.toISOString(),
  };
}
