import type { AssignedInput, LadderRendition } from '@streamcloud/contract';
import { outputModeOfName } from '@streamcloud/contract';
import { edgeKeyOf, signEdgeCredential } from '@streamcloud/contract/edge-credential';
import { previewKeyOf } from '@streamcloud/contract/preview-credential';
import type { NodeIdentity } from '../../lib/auth-context.js';
import { rtmpPort } from './connections.js';
import type { OutputRow } from './outputs.repository.js';
import { mediaHostOf } from './stream-mapper.js';
import type { AssignedVersions, NodeHostRow, StreamRow } from './streams.table.js';
import { previousTokenOf } from './token-rotation.js';

// What a node is told of the streams it serves (`GET /node/inputs`, StreamsService.ofNode): made from the rows the
// service read, with the credentials signed for this node. Pure but for the signing: no database, no clock.

/** A capped stream-wide token's session on one of the streams' outputs (OutputsRepository.tokenSessionsOf). */
interface TokenSessionRow {
  input_id: string;
  node_id: string | null;
  token_id: string;
  session_id: string;
  started_at: Date;
}

type SourceRow = Pick<StreamRow, 'id' | 'name' | 'status' | 'node_id'>;

/** What the service read for one node's answer. */
export interface AssignedInputsRead {
  node: NodeIdentity;
  /** The streams the node ingests and those it is an edge of (StreamsRepository.ofNode). */
  rows: Array<StreamRow & { ingress_name: string | null; renditions: LadderRendition[] | null } & AssignedVersions>;
  outputs: Map<string, OutputRow[]>;
  tokenSessions: readonly TokenSessionRow[];
  /** The sources of the Internode streams the node ingests, by id. */
  sources: Map<string, SourceRow>;
  /** The nodes the node pulls from (its streams' origins and their sources' nodes), by id. */
  origins: Map<string, NodeHostRow>;
  /** The signing versions of the accounts with a Signed output here; null: none asked. */
  signing: Map<string, string> | null;
  /** The key preview and edge keys are derived from. */
  previewSigningKey: string;
  /** Until when the pull credentials signed now are valid. */
  expiresAt: Date;
}

/**
 * The sessions of capped stream-wide tokens on the stream's outputs that other nodes serve (an output is served by
 * its edge, else by the stream's ingest node): what the calling node counts besides its own.
 */
function tokenSessionsElsewhere(
  sessions: readonly TokenSessionRow[],
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

/**
 * What the node ingesting an Internode stream pulls: the source stream on its node, with an edge credential
 * of the source bound to the pulling node (its node checks it as it checks an edge's), and whether it is live.
 */
function sourceOf(
  sourceId: string | null,
  sources: Map<string, Pick<StreamRow, 'id' | 'name' | 'status' | 'node_id'>>,
  hosts: Map<string, NodeHostRow>,
  node: NodeIdentity,
  { previewSigningKey, expiresAt }: { previewSigningKey: string; expiresAt: Date },
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
    credential: signEdgeCredential(edgeKeyOf(previewSigningKey, source.id), source.id, node.id, expiresAt),
  };
}

/**
 * The streams a node serves, with what it needs to admit pushes and plays: those it ingests, with the outputs it
 * serves itself (not those assigned to edges), and those it is an edge of, with only the outputs assigned to it,
 * where to pull them from and a fresh pull credential.
 */
export function assignedInputs(read: AssignedInputsRead): AssignedInput[] {
  const { node, rows, outputs, tokenSessions, sources, origins, signing, previewSigningKey, expiresAt } = read;
  return rows.flatMap((row): AssignedInput[] => {
    const originHost = row.node_id === node.id ? null : origins.get(row.node_id ?? '');
    if (originHost === undefined) return [];
    const edgeKey = edgeKeyOf(previewSigningKey, row.id);
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
        previewKey: previewKeyOf(previewSigningKey, row.id),
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
        source: originHost
          ? null
          : sourceOf(row.source_input_id, sources, origins, node, { previewSigningKey, expiresAt }),
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
