import { randomUUID } from 'node:crypto';
import {
  DEFAULT_ADJUSTABLE_TRACKS,
  makeStreamName,
  PASSTHROUGH_PREFIX,
  type StreamInputCreate,
} from '@streamcloud/contract';
import type { NewStream } from './streams.table.js';
import { newAccessToken } from './token-rotation.js';

/** Where a new stream goes, as StreamsService.create decided it. */
export interface NewStreamPlace {
  id: string;
  ownerId: string;
  /** The publisher's place (its address's, or the position it gave). */
  place: { geo: { latitude: number; longitude: number } | null };
  /** The node chosen; null: none, the stream waits (Pending). */
  nodeId: string | null;
  /** An Internode stream's source stream. */
  sourceId: string | null;
}

/**
 * The row of a stream created from `body`: a generated name (`in…`, or the passthrough prefix), an access token
 * unless Public (the owner's own for Private, else generated), and the default ladder for adjustable transcoding.
 */
export function newStreamRow(
  body: StreamInputCreate,
  { id, ownerId, place, nodeId, sourceId }: NewStreamPlace,
): NewStream {
  const adjustable = !body.output.passthrough;
  return {
    id,
    owner_id: ownerId,
    caption: body.caption || null,
    format: body.format,
    status: nodeId ? 'Idle' : 'Pending',
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
    node_id: nodeId,
    source_input_id: sourceId,
    output: {
      version: 2,
      passthrough: !adjustable,
      tracks: body.output.tracks ?? (adjustable ? DEFAULT_ADJUSTABLE_TRACKS : []),
    },
  };
}
