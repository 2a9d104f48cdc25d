import {
  outputModeOfName,
  PRIVATE_ACCESS_MODES,
  type StreamInput,
  type StreamInputSummary,
} from '@streamcloud/contract';
import { ingestConnection, type MediaHost } from './connections.js';
import type { InputRow, NodeHostRow, StatusMessageRow } from './streams.repository.js';

export const mediaHostOf = (node: NodeHostRow): MediaHost => ({
  protocol: node.protocol,
  hostname: node.hostname,
  port: node.port,
  nodeName: node.name,
  mediaPorts: node.media_ports,
});

const isPrivate = (row: Pick<InputRow, 'access'>) => PRIVATE_ACCESS_MODES.includes(row.access);

export function toSummary(
  row: Pick<
    InputRow,
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

export function toStreamInput(row: InputRow, messages: StatusMessageRow[], node: NodeHostRow | null): StreamInput {
  return {
    ...toSummary(row),
    accessToken: isPrivate(row) ? row.access_token : null,
    callbackUri: row.callback_uri,
    streamer: {
      ipAddress: row.streamer_ip,
      geoLocation:
        row.streamer_latitude !== null && row.streamer_longitude !== null
          ? { latitude: row.streamer_latitude, longitude: row.streamer_longitude }
          : null,
    },
    gslb: row.gslb,
    parameters: row.parameters,
    statusMessages: messages.map((message) => ({ ...message, at: message.at.toISOString() })),
    connection: node ? ingestConnection(row.format as StreamInput['format'], mediaHostOf(node), row.name) : null,
    output: row.output,
    updatedAt: row.updated_at.toISOString(),
  };
}
